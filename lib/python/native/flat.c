/*
 * reporeuse's native Python parser: tree-sitter's C runtime and the tree-sitter-python grammar
 * (both from the pinned npm packages), plus this file, which parses one source (UTF-16, or ASCII
 * as is) and writes its syntax tree flat, so that JavaScript reads the whole tree from one array
 * instead of calling into the parser node by node (lib/python/native.ts loads it through Deno's FFI).
 *
 * The tree is written in preorder, every visible node (named or not), RR_WORDS int32 words each:
 *   0 symbol | flags << 16   symbol as ts_node_symbol (aliases applied; 65535 = ERROR);
 *                            flags: 1 named, 2 missing, 4 has error
 *   1 start index            UTF-16 code units, as web-tree-sitter's startIndex
 *   2 end index
 *   3 start row   4 start column (code units)
 *   5 end row     6 end column
 *   7 parent's index (-1 for the root)
 *   8 next sibling's index (-1 for the last child)
 *   9 field id of the node in its parent (0: none), as the tree cursor reports it
 * A node's first child, if any, is the next node.
 */
#include <stdint.h>
#include <stdlib.h>
#include <tree_sitter/api.h>

#include "arena.h"

/* the runtime's internal headers (this file reads subtrees directly; see rr_parse) */
#include "language.h"
#include "length.h"
#include "subtree.h"
#include "tree.h"

#define RR_WORDS 10
/* built with -fvisibility=hidden: only these functions are exported, and the runtime's own calls
   stay direct (no interposable PLT calls inside the library) */
#define RR_API __attribute__((visibility("default")))

const TSLanguage *tree_sitter_python(void);

typedef struct {
  Arena *arena;   /* the parser's and the tree's memory, all released by the next parse */
  int32_t *nodes;
  uint32_t cap;   /* nodes' capacity, in nodes */
  int32_t *stack; /* the walk's levels (Level, below), LEVEL_WORDS words each */
  uint32_t depth_cap;
} RR;

/* A parser made in this thread's arena, or NULL when the grammar is refused. */
static TSParser *parser(void) {
  TSParser *p = ts_parser_new();
  if (ts_parser_set_language(p, tree_sitter_python())) return p;
  ts_parser_delete(p);
  return NULL;
}

/* A parser of its own (one per thread); NULL when out of memory or the grammar is refused. */
RR_API RR *rr_new(void) {
  RR *rr = calloc(1, sizeof(RR));
  if (!rr) return NULL;
  rr->arena = rr_arena_new();
  if (rr->arena) {
    rr_arena_enter(rr->arena);
    TSParser *p = parser();
    if (p) ts_parser_delete(p);
    rr_arena_leave();
    if (p) return rr;
    rr_arena_delete(rr->arena);
  }
  free(rr);
  return NULL;
}

RR_API void rr_delete(RR *rr) {
  if (!rr) return;
  rr_arena_delete(rr->arena);
  free(rr->nodes);
  free(rr->stack);
  free(rr);
}

/* The nodes written by the last rr_parse (valid until the next call). */
RR_API int32_t *rr_nodes(RR *rr) { return rr->nodes; }

/* How many nodes fit in the buffer rr_nodes points to. */
RR_API uint32_t rr_capacity(RR *rr) { return rr->cap; }

static int grow(int32_t **buf, uint32_t *cap, uint32_t need, uint32_t words) {
  if (need <= *cap) return 1;
  uint32_t n = *cap ? *cap : 1024;
  while (n < need) n *= 2;
  int32_t *b = realloc(*buf, (size_t)n * words * sizeof(int32_t));
  if (!b) return 0;
  *buf = b;
  *cap = n;
  return 1;
}

/* One level of the walk: the children of `tree`, whose visible nodes go to the visible node
   `parent` (`tree` is that node itself, or a hidden node under it). */
typedef struct {
  const Subtree *children;
  uint32_t count, next, structural;
  const TSSymbol *aliases;
  const TSFieldMapEntry *fields, *fields_end;
  Length position;   /* where the next child starts, before its padding (when next > 0) */
  int32_t parent;    /* index of the visible parent */
  uint32_t owner;    /* the level holding `last` for that parent */
  int32_t last;      /* the parent's last child written so far (owner levels only) */
  TSFieldId inherited; /* field of this hidden level in the visible parent, else 0 */
} Level;

#define LEVEL_WORDS ((sizeof(Level) + sizeof(int32_t) - 1) / sizeof(int32_t))

static void put(int32_t *w, Subtree t, Length at, TSSymbol alias, int32_t parent, TSFieldId field,
                const TSLanguage *language, unsigned shift) {
  Length size = ts_subtree_size(t);
  TSPoint end = point_add(at.extent, size.extent);
  bool named = alias ? ts_language_symbol_metadata(language, alias).named : ts_subtree_named(t);
  int32_t flags = (named ? 1 : 0) | (ts_subtree_missing(t) ? 2 : 0) |
                  (ts_subtree_error_cost(t) > 0 ? 4 : 0);
  w[0] = (int32_t)ts_language_public_symbol(language, alias ? alias : ts_subtree_symbol(t)) |
         (flags << 16);
  w[1] = (int32_t)(at.bytes >> shift);
  w[2] = (int32_t)((at.bytes + size.bytes) >> shift);
  w[3] = (int32_t)at.extent.row;
  w[4] = (int32_t)(at.extent.column >> shift);
  w[5] = (int32_t)end.row;
  w[6] = (int32_t)(end.column >> shift);
  w[7] = parent;
  w[8] = -1;
  w[9] = field;
}

static TSFieldId field_at(const Level *l, uint32_t structural) {
  for (const TSFieldMapEntry *m = l->fields; m < l->fields_end; m++) {
    if (!m->inherited && m->child_index == structural) return m->field_id;
  }
  return 0;
}

/* A level for the children of `t` (which has some), starting at `at`. */
static Level level(Subtree t, Length at, int32_t parent, uint32_t owner, TSFieldId inherited,
                   const TSLanguage *language) {
  Level l = {ts_subtree_children(t), ts_subtree_child_count(t), 0, 0, NULL, NULL, NULL, at, parent,
             owner, -1, inherited};
  uint16_t production = ts_subtree_production_id(t);
  l.aliases = ts_language_alias_sequence(language, production);
  ts_language_field_map(language, production, &l.fields, &l.fields_end);
  return l;
}

/*
 * Parses `units` code units of `unit` bytes each and writes the tree (see the top of this file):
 * UTF-16LE when `unit` is 2; when it is 1, ASCII (whose UTF-8 bytes are its UTF-16 code units, so
 * the positions are the same). Returns the number of nodes, -1 when tree-sitter returns no tree,
 * -2 when out of memory.
 *
 * The walk visits the nodes a TSTreeCursor visits, in the same order and with the same facts
 * (tree_cursor.c: a child is visible if its subtree is or its parent's production aliases it; a
 * hidden child with visible children is looked through; a node's field is the first found walking
 * up from it through hidden ancestors, extras having none), but reads the subtrees directly: the
 * cursor recomputes aliases, positions and fields on every move.
 */
RR_API int32_t rr_parse(RR *rr, const void *source, uint32_t units, uint32_t unit) {
  unsigned shift = unit == 2 ? 1 : 0;
  /* the parser and its tree live in the arena: nothing is freed one by one (arena.c) */
  rr_arena_enter(rr->arena);
  TSParser *p = parser();
  TSTree *tree = p ? ts_parser_parse_string_encoding(
                         p, NULL, (const char *)source, units << shift,
                         shift ? TSInputEncodingUTF16LE : TSInputEncodingUTF8)
                   : NULL;
  /* the parser is deleted (its external scanner's state is malloc'd), its tree is not */
  if (p) ts_parser_delete(p);
  if (!tree) {
    rr_arena_leave();
    return -1;
  }
  const TSLanguage *language = tree->language;
  int32_t result = -2;
  uint32_t count = 0, depth = 0;
  Level *levels = (Level *)rr->stack;
  if (!grow(&rr->nodes, &rr->cap, 1, RR_WORDS)) goto done;
  Subtree root = tree->root;
  Length at = ts_subtree_padding(root);
  put(rr->nodes, root, at, 0, -1, 0, language, shift);
  count = 1;
  if (ts_subtree_child_count(root) == 0) {
    result = 1;
    goto done;
  }
  if (!grow(&rr->stack, &rr->depth_cap, 1, LEVEL_WORDS)) goto done;
  levels = (Level *)rr->stack;
  levels[0] = level(root, at, 0, 0, 0, language);
  depth = 1;
  while (depth > 0) {
    Level *l = &levels[depth - 1];
    if (l->next == l->count) {
      depth--;
      continue;
    }
    uint32_t i = l->next++;
    Subtree child = l->children[i];
    if (i > 0) l->position = length_add(l->position, ts_subtree_padding(child));
    Length start = l->position;
    l->position = length_add(start, ts_subtree_size(child));
    bool extra = ts_subtree_extra(child);
    TSSymbol alias = 0;
    TSFieldId field = 0;
    if (!extra) {
      if (l->aliases) alias = l->aliases[l->structural];
      field = field_at(l, l->structural);
      if (!field) field = l->inherited;
      l->structural++;
    }
    bool has_children = ts_subtree_visible_child_count(child) > 0;
    if (ts_subtree_visible(child) || alias) {
      if (!grow(&rr->nodes, &rr->cap, count + 1, RR_WORDS)) goto done;
      int32_t index = (int32_t)count++;
      put(rr->nodes + (size_t)index * RR_WORDS, child, start, alias, l->parent, field, language,
          shift);
      Level *owner = &levels[l->owner];
      if (owner->last >= 0) rr->nodes[(size_t)owner->last * RR_WORDS + 8] = index;
      owner->last = index;
      if (has_children) {
        if (!grow(&rr->stack, &rr->depth_cap, depth + 1, LEVEL_WORDS)) goto done;
        levels = (Level *)rr->stack;
        levels[depth] = level(child, start, index, depth, 0, language);
        depth++;
      }
    } else if (has_children) {
      /* looked through: its visible nodes are the parent's; an extra passes no field down */
      uint32_t owner = l->owner;
      int32_t parent = l->parent;
      if (!grow(&rr->stack, &rr->depth_cap, depth + 1, LEVEL_WORDS)) goto done;
      levels = (Level *)rr->stack;
      levels[depth] = level(child, start, parent, owner, extra ? 0 : field, language);
      depth++;
    }
  }
  result = (int32_t)count;
done:
  rr_arena_leave();
  return result;
}
