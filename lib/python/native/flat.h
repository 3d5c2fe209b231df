/*
 * The flat tree of reporeuse's native Python parser (see flat.c for its layout).
 */
#ifndef RR_FLAT_H
#define RR_FLAT_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

/* Words per node. */
#define RR_WORDS 10

/* Results of a parse besides a node count (server.c; lib/python/native.ts names them). */
#define RR_NO_TREE (-1)
#define RR_TOO_BIG (-2)
#define RR_NO_MEMORY (-3)

/* The walk's levels (the visible parent and its last child written so far), kept between
   parses (plain malloc, not the arena). */
typedef struct {
  int32_t parent, last;
} RRLevel;
typedef struct {
  RRLevel *v;
  uint32_t cap;
} RRLevels;

bool rr_levels_grow(RRLevels *levels, uint32_t need);

/*
 * Writes `tree`'s visible nodes into `nodes` (room for `cap` nodes); positions are shifted right
 * by `shift` (1 when the source was UTF-16, whose byte offsets are twice its code units).
 * Returns the number of nodes, or RR_TOO_BIG / RR_NO_MEMORY.
 */
int32_t rr_flatten(const TSTree *tree, unsigned shift, int32_t *nodes, uint32_t cap,
                   RRLevels *levels);

#endif
