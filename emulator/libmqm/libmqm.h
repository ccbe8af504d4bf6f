/* libmqm's own parts, shared by its files: the session protocol's framing (wire.c), the connections of this
 * process (session.c), where a connection goes (route.c, ccdt.c) and asynchronous consumption (consume.c).
 * The protocol is the one docs/emulator.md describes ("The session protocol"). */
#ifndef MQCONF_LIBMQM_H
#define MQCONF_LIBMQM_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "mqconf_mqi.h"

/* verbs of the session protocol */
enum {
    V_HELLO = 1, V_CONNX, V_ATTACH, V_DISC, V_OPEN, V_CLOSE, V_PUT, V_PUT1, V_GET, V_INQ, V_SET, V_BEGIN, V_CMIT,
    V_BACK, V_CRTMH, V_DLTMH, V_SETMP, V_INQMP, V_DLTMP, V_SUB, V_SUBRQ, V_STAT, V_CANCEL
};

#define SESSION_MAGIC "MQCONF-SESSION"
#define SESSION_VERSION 1
#define HEADER_BYTES 12                       /* u32 length, u16 verb, u16 flags, u32 tag */
#define MAX_REPLY_BYTES (104857600u + 1048576u) /* MQ's largest message and its structures */
#define MAX_STRING_BYTES (100u * 1024u * 1024u) /* the longest string a structure may point to */

/* A request being built: one contiguous frame. */
typedef struct {
    uint8_t *data;
    size_t len, cap;
    int failed; /* out of memory */
    uint8_t small[2048];
} frame;

void frame_start(frame *f, int verb);
void frame_i32(frame *f, int32_t value);
void frame_i64(frame *f, int64_t value);
void frame_bytes(frame *f, const void *data, size_t length);
void frame_free(frame *f);

/* A reply being read; any item that is not there makes it bad. */
typedef struct {
    const uint8_t *at;
    size_t left;
    int bad;
} reader;

int32_t read_i32(reader *r);
int64_t read_i64(reader *r);
const uint8_t *read_bytes(reader *r, uint32_t *length);

/* One connection (a session with the listener). Calls on it take its lock; the consumer thread of MQCB/MQCTL has
 * its own socket attached to the same session. */
typedef struct consumers consumers;
typedef struct session {
    int fd;
    int broken;
    MQHCONN remote;      /* the listener's handle for this connection */
    MQHCONN local;       /* the handle the application holds */
    uint32_t next_tag;
    uint8_t token[16];
    char address[300];   /* where it went, for the consumer's own socket */
    pthread_mutex_t lock;
    uint8_t *reply;      /* the last reply frame (under lock) */
    size_t reply_cap;
    consumers *async;    /* MQCB/MQCTL state, created on first use */
    int refs;            /* calls in progress plus the table's own reference */
} session;

/* A sent request's answer: CompCode, Reason and a reader on the outputs (valid until the session's next call). */
typedef struct {
    MQLONG comp, reason;
    reader out;
} answer;

/* wire.c: socket input and output */
int wire_connect(const char *address, int *unreachable_host);
int wire_send(int fd, frame *f, uint32_t tag);
int wire_receive(int fd, uint8_t **buffer, size_t *capacity, uint32_t *length);
int wire_exchange(int fd, frame *request, uint32_t tag, uint8_t **buffer, size_t *capacity, answer *reply);
MQLONG wire_hello(int fd, uint8_t **buffer, size_t *capacity);

/* session.c */
session *session_acquire(MQHCONN hconn);
void session_release(session *s);
MQHCONN session_register(session *s);
void session_forget(session *s);
int session_call(session *s, frame *request, answer *reply);
void session_done(session *s);
void session_close(session *s);

/* route.c: where a connection goes, as IBM's client finds it */
#define MAX_ROUTES 64
typedef struct {
    char address[300];
    char channel[MQ_CHANNEL_NAME_LENGTH + 1];
    int tls;  /* the channel asks for TLS */
} route;
MQLONG find_routes(const char *qmgr, const uint8_t *cno, const uint8_t *cd, route *routes, int *count);

/* ccdt.c: a JSON CCDT's client-connection channels for a queue manager */
MQLONG ccdt_routes(const char *url, const char *qmgr, route *routes, int *count);

/* consume.c */
void consume_cb(session *s, MQLONG operation, uint8_t *cbd, MQHOBJ hobj, const uint8_t *md, const uint8_t *gmo,
                MQLONG *comp, MQLONG *reason);
void consume_ctl(session *s, MQLONG operation, const uint8_t *ctlo, MQLONG *comp, MQLONG *reason);
void consume_end(session *s);
void consume_free(session *s);
void consume_closing(session *s, MQHOBJ hobj);
int consume_active_elsewhere(session *s);
void get_on(session *s, int fd, uint8_t **reply, size_t *reply_cap, MQHOBJ Hobj, uint8_t *md, int md_length,
            uint8_t *gmo, int gmo_length, MQLONG BufferLength, PMQVOID pBuffer, PMQLONG pDataLength,
            PMQLONG pCompCode, PMQLONG pReason, uint32_t *tag);

/* mqi.c helpers the other files use */
int structure_length(const void *structure, const char *eye, const int *lengths, int versions);
MQLONG field_i32(const void *structure, size_t offset);
void *field_ptr(const void *structure, size_t offset);
extern const int MD_LENGTHS[], GMO_LENGTHS[], CBD_LENGTHS[], CTLO_LENGTHS[];

#endif
