/*
 * reporeuse's native Python parser: tree-sitter's C runtime and the tree-sitter-python grammar
 * (both from the pinned npm packages), plus this file, which parses one UTF-16 source and writes
 * its syntax tree flat, so that JavaScript reads the whole tree from one array instead of calling
 * into the parser node by node (lib/python/native.ts loads it through Deno's FFI).
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

#define RR_WORDS 10
/* built with -fvisibility=hidden: only these functions are exported, and the runtime's own calls
   stay direct (no interposable PLT calls inside the library) */
#define RR_API __attribute__((visibility("default")))

const TSLanguage *tree_sitter_python(void);

typedef struct {
  TSParser *parser;
  int32_t *nodes;
  uint32_t cap;   /* nodes' capacity, in nodes */
  int32_t *stack; /* per depth: the parent's index, then the last child's index */
  uint32_t depth_cap;
} RR;

/* A parser of its own (one per thread); NULL when out of memory or the grammar is refused. */
RR_API RR *rr_new(void) {
  RR *rr = calloc(1, sizeof(RR));
  if (!rr) return NULL;
  rr->parser = ts_parser_new();
  if (!rr->parser || !ts_parser_set_language(rr->parser, tree_sitter_python())) {
    if (rr->parser) ts_parser_delete(rr->parser);
    free(rr);
    return NULL;
  }
  return rr;
}

RR_API void rr_delete(RR *rr) {
  if (!rr) return;
  ts_parser_delete(rr->parser);
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

static void put(int32_t *w, TSNode n, int32_t parent, int32_t field) {
  TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
  int32_t flags = (ts_node_is_named(n) ? 1 : 0) | (ts_node_is_missing(n) ? 2 : 0) |
                  (ts_node_has_error(n) ? 4 : 0);
  w[0] = (int32_t)ts_node_symbol(n) | (flags << 16);
  w[1] = (int32_t)(ts_node_start_byte(n) / 2);
  w[2] = (int32_t)(ts_node_end_byte(n) / 2);
  w[3] = (int32_t)s.row;
  w[4] = (int32_t)(s.column / 2);
  w[5] = (int32_t)e.row;
  w[6] = (int32_t)(e.column / 2);
  w[7] = parent;
  w[8] = -1;
  w[9] = field;
}

/*
 * Parses `units` UTF-16 code units and writes the tree (see the top of this file). Returns the
 * number of nodes, -1 when tree-sitter returns no tree, -2 when out of memory.
 */
RR_API int32_t rr_parse(RR *rr, const uint16_t *source, uint32_t units) {
  TSTree *tree = ts_parser_parse_string_encoding(rr->parser, NULL, (const char *)source,
                                                 units * 2, TSInputEncodingUTF16LE);
  if (!tree) return -1;
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  uint32_t count = 0, depth = 0;
  int32_t result = -2;
  if (!grow(&rr->nodes, &rr->cap, 1, RR_WORDS)) goto done;
  if (!grow(&rr->stack, &rr->depth_cap, 1, 2)) goto done;
  put(rr->nodes, ts_tree_cursor_current_node(&c), -1, 0);
  count = 1;
  for (;;) {
    int32_t parent;
    if (ts_tree_cursor_goto_first_child(&c)) {
      /* the node just written is the parent of this one */
      depth++;
      if (!grow(&rr->stack, &rr->depth_cap, depth + 1, 2)) goto done;
      parent = (int32_t)count - 1;
      rr->stack[depth * 2] = parent;
    } else {
      while (!ts_tree_cursor_goto_next_sibling(&c)) {
        if (!ts_tree_cursor_goto_parent(&c)) {
          result = (int32_t)count;
          goto done;
        }
        depth--;
      }
      parent = rr->stack[depth * 2];
      rr->nodes[(size_t)rr->stack[depth * 2 + 1] * RR_WORDS + 8] = (int32_t)count;
    }
    if (!grow(&rr->nodes, &rr->cap, count + 1, RR_WORDS)) goto done;
    put(rr->nodes + (size_t)count * RR_WORDS, ts_tree_cursor_current_node(&c), parent,
        (int32_t)ts_tree_cursor_current_field_id(&c));
    rr->stack[depth * 2 + 1] = (int32_t)count;
    count++;
  }
done:
  ts_tree_cursor_delete(&c);
  ts_tree_delete(tree);
  return result;
}
