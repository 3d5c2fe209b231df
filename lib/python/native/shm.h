/*
 * What the client (client.c, in the caller's process) and the parse server (server.c) share:
 * the layout of the shared memory and the request. lib/python/native.ts repeats the offsets.
 */
#ifndef RR_SHM_H
#define RR_SHM_H

#include <stdint.h>

/* The server's file descriptor of the shared memory. */
#define RR_SHM_FD 3
/* Where the source starts: its code units (1 or 2 bytes each). */
#define RR_SOURCE_AT 64
/* Where the flat tree starts; the source's room ends here (256 MiB). */
#define RR_NODES_AT ((uint64_t)256 << 20)
/* The shared memory's size (sparse: only what is written takes memory). */
#define RR_SHM_BYTES ((uint64_t)4 << 30)

/* One parse: `units` code units of `unit` (1: ASCII, 2: UTF-16LE) bytes at RR_SOURCE_AT. */
typedef struct {
  uint32_t units, unit;
} RRRequest;

#endif
