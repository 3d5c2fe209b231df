/*
 * The parse server of reporeuse's native Python parser: a process of its own that runs
 * tree-sitter's C runtime and the tree-sitter-python grammar (from the pinned npm packages), so
 * that a crash in native code (a bug, a hostile input, running out of memory) ends this process,
 * never the caller's: client.c sees it die and the file is parsed by the wasm parser.
 *
 *   reporeuse-parse-server SERVE SHM_BYTES PARENT_PID   (started by client.c)
 *     fd 0: a socket to the client, fd 3: the shared memory (a memfd of SHM_BYTES bytes). For each
 *     request (RRRequest, below) it parses the source at RR_SOURCE_AT of the shared memory and
 *     writes the flat tree (flat.c) at RR_NODES_AT, then answers with an int32: the number of
 *     nodes, or RR_NO_TREE / RR_TOO_BIG / RR_NO_MEMORY. It exits when the socket closes, and is
 *     killed when the thread that started it ends (PR_SET_PDEATHSIG).
 *   reporeuse-parse-server TRAIN FILE...
 *     the training run of the profile-guided build (lib/python/native.ts): parses each file as
 *     sources are parsed for reporeuse (ASCII as is, anything else as UTF-16) and exits 0 when
 *     every file gave a tree.
 *
 * Parser and tree live in a per-parse arena (arena.c), released at once by the next parse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "arena.h"
#include "flat.h"
#include "shm.h"

const TSLanguage *tree_sitter_python(void);

typedef struct {
  Arena *arena;
  RRLevels levels;
} Server;

/*
 * Parses `units` code units of `unit` bytes each (UTF-16LE when `unit` is 2; when it is 1, ASCII,
 * whose UTF-8 bytes are its UTF-16 code units, so positions are the same) and writes the tree into
 * `nodes` (room for `cap` nodes). Returns the number of nodes or an RR_ error.
 */
static int32_t parse(Server *s, const void *source, uint32_t units, uint32_t unit, int32_t *nodes,
                     uint32_t cap) {
  unsigned shift = unit == 2 ? 1 : 0;
  /* the parser and its tree live in the arena: nothing is freed one by one (arena.c) */
  rr_arena_enter(s->arena);
  TSParser *p = ts_parser_new();
  int32_t result = RR_NO_TREE;
  if (ts_parser_set_language(p, tree_sitter_python())) {
    TSTree *tree = ts_parser_parse_string_encoding(
        p, NULL, (const char *)source, units << shift,
        shift ? TSInputEncodingUTF16LE : TSInputEncodingUTF8);
    if (tree) result = rr_flatten(tree, shift, nodes, cap, &s->levels);
  }
  /* the parser is deleted (the grammar's external scanner state is freed through it); the tree
     is left to the arena */
  ts_parser_delete(p);
  rr_arena_leave();
  return result;
}

static int full(ssize_t (*io)(int, void *, size_t), int fd, void *buf, size_t n) {
  for (size_t done = 0; done < n;) {
    ssize_t r = io(fd, (char *)buf + done, n - done);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return 0;
    done += (size_t)r;
  }
  return 1;
}

static ssize_t write_some(int fd, void *buf, size_t n) { return write(fd, buf, n); }

static int serve(size_t size, pid_t parent) {
  /* gone with the thread that started it, even if that thread dies without a word */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) return 1;
  unsigned char *shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, RR_SHM_FD, 0);
  if (shm == MAP_FAILED) return 1;
  Server s = {rr_arena_new(), {NULL, 0}};
  if (!s.arena) return 1;
  RRRequest q;
  while (full(read, 0, &q, sizeof q)) {
    int32_t r = RR_TOO_BIG;
    uint64_t bytes = (uint64_t)q.units * q.unit;
    if ((q.unit == 1 || q.unit == 2) && RR_SOURCE_AT + bytes <= RR_NODES_AT && size > RR_NODES_AT) {
      uint64_t cap = (size - RR_NODES_AT) / (RR_WORDS * sizeof(int32_t));
      r = parse(&s, shm + RR_SOURCE_AT, q.units, q.unit, (int32_t *)(shm + RR_NODES_AT),
                cap > INT32_MAX ? INT32_MAX : (uint32_t)cap);
    }
    if (!full(write_some, 0, &r, sizeof r)) break;
  }
  return 0;
}

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

static int train(int n, char **files) {
  Server s = {rr_arena_new(), {NULL, 0}};
  uint32_t cap = 1 << 16;
  int32_t *nodes = malloc((size_t)cap * RR_WORDS * sizeof(int32_t));
  if (!s.arena || !nodes) return 1;
  for (int a = 0; a < n; a++) {
    FILE *f = fopen(files[a], "rb");
    if (!f) {
      fprintf(stderr, "train: cannot read %s\n", files[a]);
      return 1;
    }
    size_t size = 1 << 16, len = 0;
    unsigned char *buf = malloc(size);
    for (size_t got; buf && (got = fread(buf + len, 1, size - len, f)) > 0;) {
      len += got;
      if (len == size) buf = realloc(buf, size *= 2);
    }
    fclose(f);
    if (!buf) return 1;
    int ascii = 1;
    for (size_t i = 0; i < len && ascii; i++) ascii = buf[i] < 0x80;
    /* room for a tree of twice as many nodes as bytes, more if that was not enough */
    if (cap < 2 * len + 1024) {
      free(nodes);
      cap = (uint32_t)(2 * len + 1024);
      nodes = malloc((size_t)cap * RR_WORDS * sizeof(int32_t));
      if (!nodes) return 1;
    }
    int32_t r;
    for (;;) {
      if (ascii) {
        r = parse(&s, buf, (uint32_t)len, 1, nodes, cap);
      } else {
        uint16_t *units = malloc((len + 1) * sizeof(uint16_t));
        if (!units) return 1;
        r = parse(&s, units, utf16(buf, len, units), 2, nodes, cap);
        free(units);
      }
      if (r != RR_TOO_BIG) break;
      nodes = realloc(nodes, (size_t)(cap *= 2) * RR_WORDS * sizeof(int32_t));
      if (!nodes) return 1;
    }
    free(buf);
    if (r <= 0) {
      fprintf(stderr, "train: no tree for %s\n", files[a]);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "TRAIN") == 0) return train(argc - 2, argv + 2);
  if (argc == 4 && strcmp(argv[1], "SERVE") == 0) {
    return serve(strtoull(argv[2], NULL, 10), (pid_t)strtol(argv[3], NULL, 10));
  }
  fprintf(stderr, "usage: %s SERVE SHM_BYTES PARENT_PID | TRAIN FILE...\n", argv[0]);
  return 2;
}
