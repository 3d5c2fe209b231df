/*
 * The client of reporeuse's native Python parser, loaded into the caller's process through Deno's
 * FFI (lib/python/native.ts): it starts the parse server (server.c) as a process of its own,
 * hands it sources and takes the flat trees back through shared memory, and turns whatever
 * happens to the server into a result code. No tree-sitter code runs in the caller's process: a
 * server that crashes (a signal, running out of memory) or hangs (past the timeout, then killed)
 * costs only that file, which the caller parses with the wasm parser; the next parse starts a new
 * server. A tree is checked before it is handed over (every index in range, every sibling chain
 * going forward), so a server that went wrong cannot make the caller read out of bounds or loop.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "flat.h"
#include "shm.h"

#define RR_API __attribute__((visibility("default")))

/* Results of rrc_parse besides the server's (flat.h). */
#define RR_CRASHED (-4)
#define RR_TIMED_OUT (-5)
#define RR_BAD_TREE (-6)
#define RR_NO_SERVER (-7)

typedef struct {
  char *server;
  uint64_t memory;   /* the server's memory limit beyond the shared memory (0: none) */
  int shm;           /* the memfd */
  unsigned char *base;
  pid_t pid;         /* the running server, or 0 */
  int sock;          /* its socket, or -1 */
  int status;        /* wait status of the last server that died */
} Client;

/* Servers started and not yet reaped, of every client in this process. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t started[256];
static int nstarted;

/* Reaps the servers that are gone (those whose thread ended were killed with it). */
static void reap_finished(void) {
  for (int i = 0; i < nstarted;) {
    if (waitpid(started[i], NULL, WNOHANG) != 0) started[i] = started[--nstarted];
    else i++;
  }
}

static void forget(pid_t pid) {
  pthread_mutex_lock(&lock);
  for (int i = 0; i < nstarted; i++) {
    if (started[i] == pid) {
      started[i] = started[--nstarted];
      break;
    }
  }
  pthread_mutex_unlock(&lock);
}

/* Ends the running server (killed if still alive) and keeps its wait status. */
static void stop(Client *c) {
  if (!c->pid) return;
  if (c->sock >= 0) close(c->sock);
  c->sock = -1;
  int status = 0;
  pid_t r;
  /* a server that answered no more has exited or crashed; one still running is killed */
  if ((r = waitpid(c->pid, &status, WNOHANG)) == 0) {
    kill(c->pid, SIGKILL);
    while ((r = waitpid(c->pid, &status, 0)) < 0 && errno == EINTR) {}
  }
  if (r == c->pid) c->status = status;
  forget(c->pid);
  c->pid = 0;
}

static int start(Client *c) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) return 0;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
  posix_spawn_file_actions_adddup2(&fa, c->shm, RR_SHM_FD);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  char size[24], parent[24];
  snprintf(size, sizeof size, "%llu", (unsigned long long)RR_SHM_BYTES);
  snprintf(parent, sizeof parent, "%d", (int)getpid());
  char *argv[] = {c->server, "SERVE", size, parent, NULL};
  char *envp[] = {NULL};
  pid_t pid;
  pthread_mutex_lock(&lock);
  reap_finished();
  int failed = nstarted == (int)(sizeof started / sizeof *started) ||
               posix_spawn(&pid, c->server, &fa, NULL, argv, envp) != 0;
  if (!failed) started[nstarted++] = pid;
  pthread_mutex_unlock(&lock);
  posix_spawn_file_actions_destroy(&fa);
  close(sv[1]);
  if (failed) {
    close(sv[0]);
    return 0;
  }
  if (c->memory) {
    struct rlimit limit = {RR_SHM_BYTES + c->memory, RR_SHM_BYTES + c->memory};
    prlimit(pid, RLIMIT_AS, &limit, NULL);
  }
  c->pid = pid;
  c->sock = sv[0];
  return 1;
}

/*
 * A client of the server at `server` (a path), whose memory beyond the shared memory is limited
 * to `memory` bytes (0: no limit); NULL when the shared memory cannot be made or the server not
 * started.
 */
RR_API Client *rrc_new(const char *server, uint64_t memory) {
  Client *c = calloc(1, sizeof(Client));
  if (!c) return NULL;
  c->sock = -1;
  c->server = strdup(server);
  c->memory = memory;
  c->shm = memfd_create("reporeuse-parse", MFD_CLOEXEC);
  if (c->server && c->shm >= 0 && ftruncate(c->shm, (off_t)RR_SHM_BYTES) == 0) {
    c->base = mmap(NULL, RR_SHM_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, c->shm, 0);
    if (c->base != MAP_FAILED && start(c)) return c;
    if (c->base != MAP_FAILED) munmap(c->base, RR_SHM_BYTES);
  }
  if (c->shm >= 0) close(c->shm);
  free(c->server);
  free(c);
  return NULL;
}

RR_API void rrc_delete(Client *c) {
  if (!c) return;
  stop(c);
  munmap(c->base, RR_SHM_BYTES);
  close(c->shm);
  free(c->server);
  free(c);
}

/* The shared memory: the source goes at RR_SOURCE_AT, the tree comes at RR_NODES_AT. */
RR_API unsigned char *rrc_memory(Client *c) { return c->base; }

/* The running server's process id, or 0. */
RR_API int32_t rrc_pid(Client *c) { return c->pid; }

/* The wait status of the last server that died (as waitpid gives it). */
RR_API int32_t rrc_status(Client *c) { return c->status; }

/* CPU seconds the process `pid` has used, or -1 when it cannot be told. */
static double cpu_seconds(pid_t pid) {
  clockid_t clock;
  struct timespec t;
  if (clock_getcpuclockid(pid, &clock) || clock_gettime(clock, &t)) return -1;
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Whether `count` nodes at `w` form a tree of a `units`-unit source (see flat.c). */
static int valid(const int32_t *w, int32_t count, uint32_t units) {
  for (int32_t i = 0; i < count; i++, w += RR_WORDS) {
    int32_t parent = w[7], next = w[8];
    if (i == 0 ? parent != -1 : parent < 0 || parent >= i) return 0;
    if (next != -1 && (next <= i || next >= count || w[(next - i) * RR_WORDS + 7] != parent)) {
      return 0;
    }
    if (w[1] < 0 || w[1] > w[2] || (uint32_t)w[2] > units) return 0;
  }
  return 1;
}

/*
 * Parses the `units` code units of `unit` bytes (1: ASCII, 2: UTF-16LE) the caller put at
 * RR_SOURCE_AT. A server that spends more than `timeout_ms` of CPU time on it (0: no limit) is
 * killed; so is one that answers nothing for 20 times as long in wall time (stopped, say): a busy
 * machine slows a parse, it does not fail it. Returns the number of nodes of the tree
 * at RR_NODES_AT, or RR_NO_TREE, RR_TOO_BIG, RR_NO_MEMORY (from the server), RR_CRASHED (the server
 * died: rrc_status says how), RR_TIMED_OUT (it was killed), RR_BAD_TREE, RR_NO_SERVER.
 */
RR_API int32_t rrc_parse(Client *c, uint32_t units, uint32_t unit, uint32_t timeout_ms) {
  if (RR_SOURCE_AT + (uint64_t)units * unit > RR_NODES_AT) return RR_TOO_BIG;
  /* a server that died since the last parse (killed, say) is replaced before this one */
  if (c->pid && waitpid(c->pid, &c->status, WNOHANG) == c->pid) {
    forget(c->pid);
    c->pid = 0;
    close(c->sock);
    c->sock = -1;
  }
  if (!c->pid && !start(c)) return RR_NO_SERVER;
  RRRequest q = {units, unit};
  if (send(c->sock, &q, sizeof q, MSG_NOSIGNAL) != (ssize_t)sizeof q) {
    stop(c);
    return RR_CRASHED;
  }
  int32_t r;
  size_t got = 0;
  double cpu0 = cpu_seconds(c->pid);
  uint64_t waited = 0;
  while (got < sizeof r) {
    struct pollfd p = {c->sock, POLLIN, 0};
    int ready = poll(&p, 1, timeout_ms ? 1000 : -1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      waited += 1000;
      double cpu = cpu_seconds(c->pid);
      if (waited > 20 * (uint64_t)timeout_ms || (cpu0 >= 0 && (cpu - cpu0) * 1000 > timeout_ms)) {
        stop(c);
        return RR_TIMED_OUT;
      }
      continue;
    }
    ssize_t n = ready > 0 ? recv(c->sock, (char *)&r + got, sizeof r - got, 0) : -1;
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      stop(c);
      return RR_CRASHED;
    }
    got += (size_t)n;
  }
  if (r <= 0) return r;
  uint64_t room = (RR_SHM_BYTES - RR_NODES_AT) / (RR_WORDS * sizeof(int32_t));
  if ((uint64_t)r > room || !valid((const int32_t *)(c->base + RR_NODES_AT), r, units)) {
    stop(c);
    return RR_BAD_TREE;
  }
  return r;
}
