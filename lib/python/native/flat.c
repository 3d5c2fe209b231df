/*
 * The flat tree of reporeuse's native Python parser: one parsed source's syntax tree written into
 * one array, so that JavaScript reads the whole tree at once instead of asking the parser node by
 * node (lib/python/native.ts reads it). Only tree-sitter's public API (tree_sitter/api.h) is used.
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
#include "flat.h"

#include <stdlib.h>

bool rr_levels_grow(RRLevels *l, uint32_t need) {
  if (need <= l->cap) return true;
  uint32_t n = l->cap ? l->cap : 64;
  while (n < need) n *= 2;
  RRLevel *v = realloc(l->v, (size_t)n * sizeof(RRLevel));
  if (!v) return false;
  l->v = v;
  l->cap = n;
  return true;
}

static inline void put(int32_t *w, TSNode n, int32_t parent, TSFieldId field, unsigned shift) {
  TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
  int32_t flags = (ts_node_is_named(n) ? 1 : 0) | (ts_node_is_missing(n) ? 2 : 0) |
                  (ts_node_has_error(n) ? 4 : 0);
  w[0] = (int32_t)ts_node_symbol(n) | (flags << 16);
  w[1] = (int32_t)(ts_node_start_byte(n) >> shift);
  w[2] = (int32_t)(ts_node_end_byte(n) >> shift);
  w[3] = (int32_t)s.row;
  w[4] = (int32_t)(s.column >> shift);
  w[5] = (int32_t)e.row;
  w[6] = (int32_t)(e.column >> shift);
  w[7] = parent;
  w[8] = -1;
  w[9] = field;
}

int32_t rr_flatten(const TSTree *tree, unsigned shift, int32_t *nodes, uint32_t cap,
                   RRLevels *levels) {
  if (cap == 0) return RR_TOO_BIG;
  TSNode root = ts_tree_root_node(tree);
  put(nodes, root, -1, 0, shift);
  uint32_t count = 1;
  if (ts_node_child_count(root) == 0) return 1;
  uint32_t depth = 0;
  if (!rr_levels_grow(levels, 1)) return RR_NO_MEMORY;
  TSTreeCursor c = ts_tree_cursor_new(root);
  int32_t result = RR_TOO_BIG;
  RRLevel *v = levels->v;
  v[0] = (RRLevel){0, -1};
  /* the cursor is at a node just written; `leaf`: it has no children */
  bool leaf = false;
  for (;;) {
    if (!leaf && ts_tree_cursor_goto_first_child(&c)) {
      if (!rr_levels_grow(levels, ++depth + 1)) {
        result = RR_NO_MEMORY;
        goto done;
      }
      v = levels->v;
      v[depth] = (RRLevel){(int32_t)count - 1, -1};
    } else {
      while (!ts_tree_cursor_goto_next_sibling(&c)) {
        if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
          result = (int32_t)count;
          goto done;
        }
        depth--;
      }
    }
    if (count == cap) goto done;
    TSNode n = ts_tree_cursor_current_node(&c);
    int32_t index = (int32_t)count++;
    RRLevel *l = &v[depth];
    put(nodes + (size_t)index * RR_WORDS, n, l->parent, ts_tree_cursor_current_field_id(&c),
        shift);
    if (l->last >= 0) nodes[(size_t)l->last * RR_WORDS + 8] = index;
    l->last = index;
    leaf = ts_node_child_count(n) == 0;
  }
done:
  ts_tree_cursor_delete(&c);
  return result;
}
