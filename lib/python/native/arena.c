/*
 * An arena allocator for tree-sitter (installed with ts_set_allocator when the library loads).
 *
 * rr_parse makes a parser, parses one file and flattens its tree, and throws all of it away:
 * nothing outlives the file. So, while a thread is inside rr_arena_enter/rr_arena_leave, its
 * tree-sitter allocations are cut from large chunks, freed blocks of up to SMALL_MAX bytes are
 * kept on per-size free lists for reuse, and the next rr_arena_enter releases everything at once.
 * This saves malloc's bookkeeping on millions of small blocks and the walk that frees a tree node
 * by node (together about a sixth of the parse's instructions on sympy).
 * Outside an arena (no other call of this library allocates through tree-sitter) the calls go to
 * malloc, realloc, calloc and free.
 */
#include "arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#define ALIGN 16
#define HEADER ALIGN                 /* a block's capacity, stored just before it */
#define CHUNK ((size_t)1 << 20)      /* chunks are at least this large */
#define SMALL_MAX 4096               /* blocks up to this size are reused once freed */
#define CLASSES (SMALL_MAX / ALIGN + 1)
#define KEEP ((size_t)64 << 20)      /* chunk bytes kept from one file to the next */

typedef struct Chunk {
  struct Chunk *next;
  size_t size, used;
  _Alignas(ALIGN) unsigned char data[];
} Chunk;

struct Arena {
  Chunk *first, *current;
  void *free[CLASSES];
};

/* the arena of this thread, when inside one */
static __thread Arena *active;

static inline size_t round_up(size_t n) { return (n + ALIGN - 1) & ~(size_t)(ALIGN - 1); }

static inline size_t capacity(const void *p) { return *(const size_t *)((const char *)p - HEADER); }

static void out_of_memory(size_t n) {
  /* what tree-sitter's own allocator does: its callers never check for NULL */
  fprintf(stderr, "tree-sitter failed to allocate %zu bytes\n", n);
  abort();
}

/* A new block of capacity `cap` (a multiple of ALIGN) cut from the chunks. */
static void *cut(Arena *a, size_t cap) {
  size_t need = cap + HEADER;
  Chunk *c = a->current;
  while (c->used + need > c->size) {
    if (c->next && c->next->size >= need) {
      c = c->next;
      c->used = 0;
      continue;
    }
    size_t size = need > CHUNK ? need : CHUNK;
    Chunk *fresh = malloc(sizeof(Chunk) + size);
    if (!fresh) out_of_memory(cap);
    fresh->size = size;
    fresh->used = 0;
    fresh->next = c->next;
    c->next = fresh;
    c = fresh;
  }
  a->current = c;
  unsigned char *p = c->data + c->used + HEADER;
  c->used += need;
  *(size_t *)(p - HEADER) = cap;
  return p;
}

static void *arena_malloc(size_t n) {
  Arena *a = active;
  if (!a) return malloc(n);
  size_t cap = round_up(n ? n : 1);
  if (cap <= SMALL_MAX) {
    void **list = &a->free[cap / ALIGN];
    if (*list) {
      void *p = *list;
      *list = *(void **)p;
      return p;
    }
  }
  return cut(a, cap);
}

static void arena_free(void *p) {
  Arena *a = active;
  if (!a) {
    free(p);
    return;
  }
  if (!p) return;
  size_t cap = capacity(p);
  if (cap <= SMALL_MAX) {
    *(void **)p = a->free[cap / ALIGN];
    a->free[cap / ALIGN] = p;
  }
}

static void *arena_calloc(size_t count, size_t size) {
  if (!active) return calloc(count, size);
  if (size && count > SIZE_MAX / size) out_of_memory(SIZE_MAX);
  void *p = arena_malloc(count * size);
  memset(p, 0, count * size);
  return p;
}

static void *arena_realloc(void *p, size_t n) {
  Arena *a = active;
  if (!a) return realloc(p, n);
  if (!p) return arena_malloc(n);
  size_t cap = capacity(p), want = round_up(n ? n : 1);
  if (want <= cap) return p;
  Chunk *c = a->current;
  /* the newest block of the chunk grows in place */
  if ((unsigned char *)p + cap == c->data + c->used && c->used + (want - cap) <= c->size) {
    c->used += want - cap;
    *(size_t *)((unsigned char *)p - HEADER) = want;
    return p;
  }
  void *q = arena_malloc(n);
  memcpy(q, p, cap);
  arena_free(p);
  return q;
}

__attribute__((constructor)) static void install(void) {
  ts_set_allocator(arena_malloc, arena_calloc, arena_realloc, arena_free);
}

Arena *rr_arena_new(void) {
  Arena *a = calloc(1, sizeof(Arena));
  if (!a) return NULL;
  a->first = malloc(sizeof(Chunk) + CHUNK);
  if (!a->first) {
    free(a);
    return NULL;
  }
  a->first->next = NULL;
  a->first->size = CHUNK;
  a->first->used = 0;
  a->current = a->first;
  return a;
}

void rr_arena_delete(Arena *a) {
  if (!a) return;
  for (Chunk *c = a->first, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(a);
}

void rr_arena_enter(Arena *a) {
  /* keep up to KEEP bytes of chunks for the next file; a huge file's peak is given back */
  size_t kept = 0;
  for (Chunk *c = a->first; c; c = c->next) {
    kept += c->size;
    c->used = 0;
    while (kept >= KEEP && c->next) {
      Chunk *drop = c->next;
      c->next = drop->next;
      free(drop);
    }
  }
  a->current = a->first;
  memset(a->free, 0, sizeof a->free);
  active = a;
}

void rr_arena_leave(void) { active = NULL; }
