/*
 * The training run of the native parser's profile-guided build (lib/python/native.ts): parses
 * each file named on the command line as the library parses sources for reporeuse — ASCII as
 * is, anything else as UTF-16 — so that the compiler learns which paths of tree-sitter's runtime
 * and of the grammar are hot. It is linked with the instrumented objects, run once, and
 * discarded; its profile is then used to compile the library.
 *
 * Exits 0 when every file was read and parsed into a tree, else 1 (naming the first failure).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct RR RR;
RR *rr_new(void);
void rr_delete(RR *rr);
int32_t rr_parse(RR *rr, const void *source, uint32_t units, uint32_t unit);

/* UTF-8 to UTF-16 (surrogate pairs above U+FFFF); a bad byte becomes U+FFFD. */
static uint32_t utf16(const unsigned char *s, size_t n, uint16_t *out) {
  uint32_t k = 0;
  for (size_t i = 0; i < n;) {
    uint32_t c = s[i], len = c < 0x80 ? 1 : c >> 5 == 6 ? 2 : c >> 4 == 14 ? 3 : c >> 3 == 30 ? 4 : 0;
    if (len == 0 || i + len > n) {
      out[k++] = 0xfffd;
      i++;
      continue;
    }
    if (len > 1) c &= 0x3f >> (len - 1);
    for (uint32_t j = 1; j < len; j++) c = (c << 6) | (s[i + j] & 0x3f);
    i += len;
    if (c >= 0x10000) {
      c -= 0x10000;
      out[k++] = (uint16_t)(0xd800 + (c >> 10));
      out[k++] = (uint16_t)(0xdc00 + (c & 0x3ff));
    } else {
      out[k++] = (uint16_t)c;
    }
  }
  return k;
}

int main(int argc, char **argv) {
  RR *rr = rr_new();
  if (!rr) {
    fprintf(stderr, "train: the parser cannot be made\n");
    return 1;
  }
  for (int a = 1; a < argc; a++) {
    FILE *f = fopen(argv[a], "rb");
    if (!f) {
      fprintf(stderr, "train: cannot read %s\n", argv[a]);
      return 1;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
      n += got;
      if (n == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) return 1;
    int ascii = 1;
    for (size_t i = 0; i < n && ascii; i++) ascii = buf[i] < 0x80;
    int32_t nodes;
    if (ascii) {
      nodes = rr_parse(rr, buf, (uint32_t)n, 1);
    } else {
      uint16_t *units = malloc((n + 1) * sizeof(uint16_t));
      if (!units) return 1;
      nodes = rr_parse(rr, units, utf16(buf, n, units), 2);
      free(units);
    }
    free(buf);
    if (nodes <= 0) {
      fprintf(stderr, "train: no tree for %s\n", argv[a]);
      return 1;
    }
  }
  rr_delete(rr);
  return 0;
}
