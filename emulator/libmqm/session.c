/* The connections of this process. The application holds handles of our own numbering (never the listener's,
 * which two sessions may share); each maps to a session, counted while a call uses it so that MQDISC in one thread
 * never frees what a call in another still reads. Calls on one connection are serialised by its lock (IBM MQ runs
 * one call at a time per connection handle too). */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libmqm.h"

#define HANDLE_BASE 0x02000001 /* far from MQHC_DEF_HCONN (0) and the negative special values */
#define MAX_CONNECTIONS 65536

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static session **table;
static int table_size;

MQHCONN session_register(session *s) {
    pthread_mutex_lock(&table_lock);
    int slot = 0;
    while (slot < table_size && table[slot] != NULL) slot++;
    if (slot == table_size && table_size < MAX_CONNECTIONS) {
        int size = table_size ? table_size * 2 : 16;
        session **grown = realloc(table, (size_t)size * sizeof *table);
        if (grown != NULL) {
            memset(grown + table_size, 0, (size_t)(size - table_size) * sizeof *table);
            table = grown;
            table_size = size;
        }
    }
    MQHCONN handle = MQHC_UNUSABLE_HCONN;
    if (slot < table_size) {
        table[slot] = s;
        s->refs = 1;
        handle = s->local = HANDLE_BASE + slot;
    }
    pthread_mutex_unlock(&table_lock);
    return handle;
}

/* The session of a handle this process holds, counted until session_release; NULL for any other value. */
session *session_acquire(MQHCONN hconn) {
    session *s = NULL;
    pthread_mutex_lock(&table_lock);
    long slot = (long)hconn - HANDLE_BASE;
    if (slot >= 0 && slot < table_size && table[slot] != NULL) {
        s = table[slot];
        s->refs++;
    }
    pthread_mutex_unlock(&table_lock);
    return s;
}

void session_release(session *s) {
    pthread_mutex_lock(&table_lock);
    int last = --s->refs == 0;
    pthread_mutex_unlock(&table_lock);
    if (last) {
        consume_free(s);
        if (s->fd >= 0) close(s->fd);
        pthread_mutex_destroy(&s->lock);
        free(s->reply);
        free(s);
    }
}

/* The handle no longer names the session (MQDISC): later calls with it are MQRC_HCONN_ERROR. */
void session_forget(session *s) {
    pthread_mutex_lock(&table_lock);
    long slot = (long)s->local - HANDLE_BASE;
    int held = slot >= 0 && slot < table_size && table[slot] == s;
    if (held) table[slot] = NULL;
    pthread_mutex_unlock(&table_lock);
    if (held) session_release(s);
}

/* One request and its reply on the session's own socket; -1 (and the session broken) when the socket failed.
 * The reply is read under the session's lock: session_done releases it (after a failure too). */
int session_call(session *s, frame *request, answer *reply) {
    pthread_mutex_lock(&s->lock);
    int failed = s->broken || request->failed;
    if (!failed) {
        failed = wire_exchange(s->fd, request, ++s->next_tag, &s->reply, &s->reply_cap, reply);
        if (failed) {
            s->broken = 1;
            shutdown(s->fd, SHUT_RDWR);
        }
    }
    return failed ? -1 : 0;
}

void session_done(session *s) {
    pthread_mutex_unlock(&s->lock);
}

/* Closing the socket ends the session at the listener (which backs out its unit of work). */
void session_close(session *s) {
    pthread_mutex_lock(&s->lock);
    s->broken = 1;
    if (s->fd >= 0) shutdown(s->fd, SHUT_RDWR);
    pthread_mutex_unlock(&s->lock);
}
