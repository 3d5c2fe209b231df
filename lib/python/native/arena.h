/*
 * The allocator of reporeuse's native parser (see arena.c): tree-sitter's allocations made
 * between rr_arena_enter and rr_arena_leave come from this thread's arena, and are all released
 * at once by the next rr_arena_enter.
 */
#ifndef RR_ARENA_H
#define RR_ARENA_H

typedef struct Arena Arena;

/* A new arena, or NULL when out of memory. */
Arena *rr_arena_new(void);
void rr_arena_delete(Arena *arena);
/* Releases everything the arena holds, and makes it this thread's allocator. */
void rr_arena_enter(Arena *arena);
/* The allocator of this thread is malloc again (what the arena holds stays valid). */
void rr_arena_leave(void);

#endif
