/* Asynchronous consumption (MQCB, MQCTL) in the application's process, as IBM's MQI client runs it: the listener
 * only sees GETs. Each connection with consumers has one delivering thread (MQOP_START: a thread of ours;
 * MQOP_START_WAIT: the caller's), whose gets go over a socket of its own attached to the same session (the ATTACH
 * verb), so the application's callbacks may use the connection while a get waits. As IBM documents ("MQCB -
 * Manage callback", "MQCTL - Control callbacks", the MQCBC's CallType; the Python emulator's async_consume.py keeps
 * the same rules, clause emulator.async-consume):
 *
 * - MQOP_REGISTER defines or replaces the callback of an object handle (an event handler: of the connection);
 *   MQOP_DEREGISTER removes it (MQRC_CALLBACK_NOT_REGISTERED when there is none); MQOP_SUSPEND and MQOP_RESUME
 *   pause and continue one consumer; the callback is the MQCBD's CallbackFunction, or its CallbackName
 *   "library(function)" loaded with dlopen;
 * - the control calls MQCBDO_REGISTER_CALL, START_CALL, STOP_CALL and DEREGISTER_CALL ask for are made;
 * - the connection is STOPPED, STARTED or SUSPENDED: MQOP_START, MQOP_START_WAIT, MQOP_STOP, MQOP_SUSPEND and
 *   MQOP_RESUME move it, and an operation its state does not allow is MQRC_OPERATION_NOT_ALLOWED; while it is
 *   started, any MQI call on it from a thread other than the delivering one is MQRC_HCONN_ASYNC_ACTIVE (but
 *   MQCTL STOP and SUSPEND, and MQDISC, which stops it first);
 * - a message is given with CallType MQCBCT_MSG_REMOVED (MQCBCT_MSG_NOT_REMOVED for a browse, or a message
 *   longer than the MQCBD's MaxMsgLength, with MQRC_TRUNCATED_MSG_FAILED); a consumer whose MQGMO waits and to
 *   which nothing comes within its WaitInterval is called with MQCBCT_EVENT_CALL and MQRC_NO_MSG_AVAILABLE;
 *   a broken connection is told to the event handler (MQRC_CONNECTION_BROKEN) and delivery stops.
 *
 * Our decisions where IBM leaves it open, as the Python emulator's: a get failing for another reason is given to
 * the consumer as an event call, and the consumer is suspended; a consumer's get waits in slices of SLICE_MS so
 * that MQCTL STOP and SUSPEND from another thread take effect within one slice (they wait for the callback in
 * progress, as IBM's do); callbacks get MQMD and MQGMO storage of the longest versions, as IBM's client gives;
 * after MQCTL START or RESUME from another thread the next message is delivered GRACE_MS later, as it would come
 * over a network at the earliest: IBM's Node.js binding suspends in each callback and marks itself resumed only
 * after its MQCTL RESUME has returned, so a message delivered at once could find it thinking it is still running
 * and never resume (seen on a loaded machine). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libmqm.h"

#define SLICE_MS 100
#define GRACE_MS 10  /* after MQCTL START or RESUME from another thread, before the next delivery */
#define FIRST_BUFFER 65536
enum { STOPPED, STARTED, SUSPENDED };

typedef struct callback {
    MQHOBJ hobj;          /* MQHO_NONE: the event handler */
    int kind;
    MQLONG options, max_length;
    MQCALLBACK_FN *function;
    void *area;
    uint8_t md[MQMD_LENGTH_2], gmo[MQGMO_LENGTH_4];
    int md_length, gmo_length;
    int suspended, register_pending;
    long waited_ms;
    struct callback *next;
} callback;

struct consumers {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    callback *list;
    int state;
    int busy;                 /* the deliverer is in a get or a callback */
    int delivering;           /* a deliverer runs (deliverer says which thread) */
    pthread_t deliverer;
    int has_thread;
    pthread_t thread;
    void *connection_area;
    int fd;                   /* the attached socket, -1 before the first get */
    uint8_t *reply, *data;
    size_t reply_cap, data_cap;
    uint32_t tag;
    MQHOBJ last;              /* the consumer served last (turns go round) */
    unsigned generation;      /* each START of a thread: an older thread that stopped itself then ends */
    struct timespec resumed;  /* when another thread last started or resumed delivery */
};

static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;

static consumers *state_of(session *s) {
    pthread_mutex_lock(&create_lock);
    if (s->async == NULL) {
        consumers *c = calloc(1, sizeof *c);
        if (c != NULL) {
            pthread_mutex_init(&c->lock, NULL);
            pthread_cond_init(&c->changed, NULL);
            c->fd = -1;
            c->state = STOPPED;
        }
        s->async = c;
    }
    pthread_mutex_unlock(&create_lock);
    return s->async;
}

static int on_delivering_thread(consumers *c) {
    return c->delivering && pthread_equal(c->deliverer, pthread_self());
}

int consume_active_elsewhere(session *s) {
    consumers *c = s->async;
    if (c == NULL) return 0;
    pthread_mutex_lock(&c->lock);
    int elsewhere = c->state == STARTED && !on_delivering_thread(c);
    pthread_mutex_unlock(&c->lock);
    return elsewhere;
}

static callback *find(consumers *c, MQHOBJ hobj) {
    for (callback *cb = c->list; cb != NULL; cb = cb->next)
        if (cb->hobj == hobj) return cb;
    return NULL;
}

static void default_md(uint8_t *md) {
    memset(md, 0, MQMD_LENGTH_2);
    memcpy(md, MQMD_STRUC_ID, 4);
    MQLONG values[][2] = {{4, 1}, {OFS_MQMD_MsgType, MQMT_DATAGRAM}, {OFS_MQMD_Expiry, MQEI_UNLIMITED},
                          {OFS_MQMD_Encoding, MQENC_NATIVE}, {OFS_MQMD_Priority, MQPRI_PRIORITY_AS_Q_DEF},
                          {OFS_MQMD_Persistence, MQPER_PERSISTENCE_AS_Q_DEF}};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) memcpy(md + values[i][0], &values[i][1], 4);
    memset(md + OFS_MQMD_Format, ' ', 8);
}

static void default_gmo(uint8_t *gmo) {
    memset(gmo, 0, MQGMO_LENGTH_4);
    memcpy(gmo, MQGMO_STRUC_ID, 4);
    MQLONG one = 1;
    memcpy(gmo + 4, &one, 4);
    memset(gmo + OFS_MQGMO_ResolvedQName, ' ', 48);
}

/* Call one callback with an MQCBC of our making; md and gmo are storage of the longest versions. */
static void call(session *s, consumers *c, const callback *cb, uint8_t *md, uint8_t *gmo, void *buffer, MQLONG type,
                 MQLONG comp, MQLONG reason, MQLONG state, MQLONG data_length, MQLONG buffer_length) {
    uint8_t cbc[MQCBC_LENGTH_2];
    memset(cbc, 0, sizeof cbc);
    memcpy(cbc, MQCBC_STRUC_ID, 4);
    MQLONG fields[][2] = {{4, MQCBC_CURRENT_VERSION}, {OFS_MQCBC_CallType, type}, {OFS_MQCBC_Hobj, cb->hobj},
                          {OFS_MQCBC_CompCode, comp}, {OFS_MQCBC_Reason, reason}, {OFS_MQCBC_State, state},
                          {OFS_MQCBC_DataLength, data_length}, {OFS_MQCBC_BufferLength, buffer_length}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) memcpy(cbc + fields[i][0], &fields[i][1], 4);
    memcpy(cbc + OFS_MQCBC_CallbackArea, &cb->area, sizeof(void *));
    memcpy(cbc + OFS_MQCBC_ConnectionArea, &c->connection_area, sizeof(void *));
    cb->function(s->local, md, gmo, buffer, cbc);
}

/* A control call (register, deregister, start, stop) to a copy of the callback, made without the lock. */
static void control_call(session *s, consumers *c, const callback *cb, MQLONG type) {
    uint8_t md[MQMD_LENGTH_2], gmo[MQGMO_LENGTH_4];
    memcpy(md, cb->md, sizeof md);
    memcpy(gmo, cb->gmo, sizeof gmo);
    call(s, c, cb, md, gmo, NULL, type, MQCC_OK, MQRC_NONE, MQCS_NONE, 0, 0);
}

/* Callbacks of the list wanting the control call `type` (with `option`), called in turn; the lock is held on
 * entry and exit, released around each call. */
static void control_calls(session *s, consumers *c, MQLONG type, MQLONG option) {
    int n = 0;
    for (callback *cb = c->list; cb != NULL; cb = cb->next) n++;
    callback *copies = n ? malloc((size_t)n * sizeof *copies) : NULL;
    int k = 0;
    for (callback *cb = c->list; cb != NULL && copies != NULL; cb = cb->next) {
        int wanted = type == MQCBCT_REGISTER_CALL ? cb->register_pending
                     : cb->kind == MQCBT_MESSAGE_CONSUMER && (cb->options & option);
        if (type == MQCBCT_REGISTER_CALL) cb->register_pending = 0;
        if (wanted) copies[k++] = *cb;
    }
    pthread_mutex_unlock(&c->lock);
    for (int i = 0; i < k; i++) control_call(s, c, &copies[i], type);
    pthread_mutex_lock(&c->lock);
    free(copies);
}

/* The callback function an MQCBD names: its CallbackFunction, else its CallbackName "library(function)". */
static MQLONG callback_function(const uint8_t *cbd, MQCALLBACK_FN **function) {
    *function = field_ptr(cbd, OFS_MQCBD_CallbackFunction);
    if (*function != NULL) return MQRC_NONE;
    char name[CBD_CALLBACK_NAME_LENGTH + 1];
    memcpy(name, cbd + OFS_MQCBD_CallbackName, CBD_CALLBACK_NAME_LENGTH);
    name[CBD_CALLBACK_NAME_LENGTH] = 0;
    for (char *end = name + strnlen(name, CBD_CALLBACK_NAME_LENGTH); end > name && end[-1] == ' '; *--end = 0) {}
    char *open = strchr(name, '('), *shut = strrchr(name, ')');
    if (name[0] == 0 || open == NULL || shut == NULL || shut < open) return MQRC_CALLBACK_LINK_ERROR;
    *open = 0;
    *shut = 0;
    void *library = dlopen(name, RTLD_NOW);
    if (library == NULL) return MQRC_MODULE_NOT_FOUND;
    *(void **)function = dlsym(library, open + 1);
    return *function != NULL ? MQRC_NONE : MQRC_MODULE_ENTRY_NOT_FOUND;
}

void consume_cb(session *s, MQLONG operation, uint8_t *cbd, MQHOBJ hobj, const uint8_t *md, const uint8_t *gmo,
                MQLONG *comp, MQLONG *reason) {
    consumers *c = state_of(s);
    *comp = MQCC_FAILED;
    if (c == NULL) { *reason = MQRC_STORAGE_NOT_AVAILABLE; return; }
    const MQLONG known = MQOP_REGISTER | MQOP_DEREGISTER | MQOP_SUSPEND | MQOP_RESUME;
    if (operation == 0 || (operation & ~known) || ((operation & MQOP_REGISTER) && (operation & MQOP_DEREGISTER)) ||
        ((operation & MQOP_SUSPEND) && (operation & MQOP_RESUME))) {
        *reason = MQRC_OPERATION_ERROR;
        return;
    }
    callback fresh = {0};
    if (operation & MQOP_REGISTER) {
        if (structure_length(cbd, MQCBD_STRUC_ID, CBD_LENGTHS, 1) < 0) { *reason = MQRC_CBD_ERROR; return; }
        fresh.kind = field_i32(cbd, OFS_MQCBD_CallbackType);
        if (fresh.kind != MQCBT_MESSAGE_CONSUMER && fresh.kind != MQCBT_EVENT_HANDLER) {
            *reason = MQRC_CALLBACK_TYPE_ERROR;
            return;
        }
        if ((*reason = callback_function(cbd, &fresh.function)) != MQRC_NONE) return;
        fresh.options = field_i32(cbd, OFS_MQCBD_Options);
        fresh.max_length = field_i32(cbd, OFS_MQCBD_MaxMsgLength);
        fresh.area = field_ptr(cbd, OFS_MQCBD_CallbackArea);
        fresh.hobj = fresh.kind == MQCBT_EVENT_HANDLER ? MQHO_NONE : hobj;
        default_md(fresh.md);
        default_gmo(fresh.gmo);
        fresh.md_length = MQMD_LENGTH_1;
        fresh.gmo_length = MQGMO_LENGTH_1;
        if (fresh.kind == MQCBT_MESSAGE_CONSUMER) {
            if (md != NULL && (fresh.md_length = structure_length(md, MQMD_STRUC_ID, MD_LENGTHS, 2)) < 0) {
                *reason = MQRC_MD_ERROR;
                return;
            }
            if (gmo != NULL && (fresh.gmo_length = structure_length(gmo, MQGMO_STRUC_ID, GMO_LENGTHS, 4)) < 0) {
                *reason = MQRC_GMO_ERROR;
                return;
            }
            if (md != NULL) memcpy(fresh.md, md, (size_t)fresh.md_length);
            if (gmo != NULL) memcpy(fresh.gmo, gmo, (size_t)fresh.gmo_length);
            if (fresh.max_length < MQCBD_FULL_MSG_LENGTH) { *reason = MQRC_CBD_ERROR; return; }
            if (hobj == MQHO_NONE || hobj == MQHO_UNUSABLE_HOBJ) { *reason = MQRC_HOBJ_ERROR; return; }
        }
    }
    pthread_mutex_lock(&c->lock);
    if (c->state == STARTED && !on_delivering_thread(c)) {
        pthread_mutex_unlock(&c->lock);
        *reason = MQRC_HCONN_ASYNC_ACTIVE;
        return;
    }
    callback *cb;
    if (operation & MQOP_REGISTER) {
        cb = find(c, fresh.hobj);
        if (cb != NULL) {  /* replaced: it keeps its place, suspension and pending register call */
            fresh.next = cb->next;
            fresh.suspended = cb->suspended;
            fresh.register_pending = cb->register_pending;
            *cb = fresh;
        } else if ((cb = malloc(sizeof *cb)) != NULL) {
            *cb = fresh;
            cb->register_pending = (fresh.options & MQCBDO_REGISTER_CALL) != 0;  /* made when delivery turns */
            cb->next = c->list;
            c->list = cb;
        } else {
            pthread_mutex_unlock(&c->lock);
            *reason = MQRC_STORAGE_NOT_AVAILABLE;
            return;
        }
    } else {
        cb = find(c, hobj);
        if (cb == NULL && hobj == MQHO_UNUSABLE_HOBJ) cb = find(c, MQHO_NONE);
        if (cb == NULL) {
            pthread_mutex_unlock(&c->lock);
            *reason = MQRC_CALLBACK_NOT_REGISTERED;
            return;
        }
    }
    if (operation & MQOP_SUSPEND) cb->suspended = 1;
    if (operation & MQOP_RESUME) cb->suspended = 0;
    if (operation & MQOP_DEREGISTER) {
        for (callback **at = &c->list; *at != NULL; at = &(*at)->next)
            if (*at == cb) { *at = cb->next; break; }
        pthread_mutex_unlock(&c->lock);
        if (cb->register_pending) control_call(s, c, cb, MQCBCT_REGISTER_CALL);
        if (cb->options & MQCBDO_DEREGISTER_CALL) control_call(s, c, cb, MQCBCT_DEREGISTER_CALL);
        free(cb);
        pthread_mutex_lock(&c->lock);
    }
    pthread_cond_broadcast(&c->changed);
    pthread_mutex_unlock(&c->lock);
    *comp = MQCC_OK;
    *reason = MQRC_NONE;
}

/* The next resumed message consumer after the last one served (copied), or 0 when there is none. */
static int next_consumer(consumers *c, callback *out) {
    callback *first = NULL, *after = NULL;
    int passed = 0;
    for (callback *cb = c->list; cb != NULL; cb = cb->next) {
        if (cb->kind != MQCBT_MESSAGE_CONSUMER || cb->suspended) {
            passed |= cb->hobj == c->last;
            continue;
        }
        if (first == NULL) first = cb;
        if (passed && after == NULL) after = cb;
        passed |= cb->hobj == c->last;
    }
    callback *chosen = after ? after : first;
    if (chosen == NULL) return 0;
    *out = *chosen;
    c->last = chosen->hobj;
    return 1;
}

/* Milliseconds since `then` (CLOCK_MONOTONIC; a zero time is long ago). */
static long elapsed_ms(const struct timespec *then) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - then->tv_sec) * 1000 + (now.tv_nsec - then->tv_nsec) / 1000000;
}

static void sleep_ms(consumers *c, int ms) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += (long)ms * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_cond_timedwait(&c->changed, &c->lock, &until);
}

/* The consumer's own socket, attached to the session (opened on its first get): 0, or -1. */
static int attach(session *s, consumers *c) {
    if (c->fd >= 0) return 0;
    int tcp;
    int fd = wire_connect(s->address, &tcp);
    if (fd < 0) return -1;
    frame f;
    answer a;
    frame_start(&f, V_ATTACH);
    frame_bytes(&f, s->token, sizeof s->token);
    int failed = wire_hello(fd, &c->reply, &c->reply_cap) != MQRC_NONE ||
                 wire_exchange(fd, &f, ++c->tag, &c->reply, &c->reply_cap, &a) < 0 || a.comp != MQCC_OK;
    frame_free(&f);
    if (failed) { close(fd); return -1; }
    c->fd = fd;
    return 0;
}

/* One get for one consumer (waiting at most a slice) and its callback; the lock is held on entry and exit,
 * released while getting and calling. 0, or -1 when the connection broke. */
static int consume_one(session *s, consumers *c, callback *cb) {
    uint8_t md[MQMD_LENGTH_2], gmo[MQGMO_LENGTH_4];
    MQLONG options = field_i32(cb->gmo, OFS_MQGMO_Options), interval = field_i32(cb->gmo, OFS_MQGMO_WaitInterval);
    MQLONG wanted = cb->max_length == MQCBD_FULL_MSG_LENGTH ? -1 : cb->max_length;
    MQLONG comp = MQCC_FAILED, reason = MQRC_CONNECTION_BROKEN, data_length = 0, length = 0;
    c->busy = 1;
    pthread_mutex_unlock(&c->lock);
    struct timespec began, ended;
    clock_gettime(CLOCK_MONOTONIC, &began);
    for (int attempt = 0; attempt < 2; attempt++) {
        length = wanted >= 0 ? wanted : (MQLONG)(c->data_cap ? c->data_cap : FIRST_BUFFER);
        if ((size_t)length > c->data_cap || c->data == NULL) {
            uint8_t *grown = realloc(c->data, length ? (size_t)length : 1);
            if (grown == NULL) { reason = MQRC_STORAGE_NOT_AVAILABLE; break; }
            c->data = grown;
            c->data_cap = (size_t)length;
        }
        memcpy(md, cb->md, sizeof md);
        memcpy(gmo, cb->gmo, sizeof gmo);
        MQLONG slice_options = options | MQGMO_WAIT, slice = SLICE_MS;
        memcpy(gmo + OFS_MQGMO_Options, &slice_options, 4);
        memcpy(gmo + OFS_MQGMO_WaitInterval, &slice, 4);
        if (attach(s, c) < 0) { comp = MQCC_FAILED; reason = MQRC_CONNECTION_BROKEN; break; }
        get_on(s, c->fd, &c->reply, &c->reply_cap, cb->hobj, md, cb->md_length, gmo, cb->gmo_length, length, c->data,
               &data_length, &comp, &reason, &c->tag);
        /* the whole message, however long, when the MQCBD asks for it: the first get left it on the queue */
        if (!(reason == MQRC_TRUNCATED_MSG_FAILED && wanted < 0 && data_length > length)) break;
        if ((size_t)data_length > c->data_cap) {
            uint8_t *grown = realloc(c->data, (size_t)data_length);
            if (grown == NULL) { reason = MQRC_STORAGE_NOT_AVAILABLE; break; }
            c->data = grown;
            c->data_cap = (size_t)data_length;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &ended);
    memcpy(gmo + OFS_MQGMO_Options, &options, 4);  /* the callback sees the options it registered */
    memcpy(gmo + OFS_MQGMO_WaitInterval, &interval, 4);
    long waited = (ended.tv_sec - began.tv_sec) * 1000 + (ended.tv_nsec - began.tv_nsec) / 1000000;
    int broke = 0;
    if (reason == MQRC_NO_MSG_AVAILABLE) {
        pthread_mutex_lock(&c->lock);
        callback *live = find(c, cb->hobj);
        int tell = 0;
        if (live != NULL) {
            live->waited_ms += waited;
            tell = (options & MQGMO_WAIT) && interval != MQWI_UNLIMITED && live->waited_ms >= interval;
            if (tell) live->waited_ms = 0;
        }
        pthread_mutex_unlock(&c->lock);
        if (tell) call(s, c, cb, md, gmo, NULL, MQCBCT_EVENT_CALL, comp, reason, MQCS_NONE, 0, 0);
    } else if (reason == MQRC_CONNECTION_BROKEN || reason == MQRC_HCONN_ERROR) {
        broke = 1;
        pthread_mutex_lock(&c->lock);
        c->state = STOPPED;
        callback *handler = find(c, MQHO_NONE), copy;
        if (handler != NULL) copy = *handler;
        pthread_mutex_unlock(&c->lock);
        if (handler != NULL)
            call(s, c, &copy, md, gmo, NULL, MQCBCT_EVENT_CALL, MQCC_FAILED, MQRC_CONNECTION_BROKEN, MQCS_STOPPED, 0, 0);
    } else if (comp == MQCC_FAILED && reason != MQRC_TRUNCATED_MSG_FAILED) {
        pthread_mutex_lock(&c->lock);
        callback *live = find(c, cb->hobj);
        if (live != NULL) live->suspended = 1;
        pthread_mutex_unlock(&c->lock);
        call(s, c, cb, md, gmo, NULL, MQCBCT_EVENT_CALL, comp, reason, MQCS_SUSPENDED, 0, 0);
    } else {
        pthread_mutex_lock(&c->lock);
        callback *live = find(c, cb->hobj);
        if (live != NULL) live->waited_ms = 0;
        pthread_mutex_unlock(&c->lock);
        int browse = options & (MQGMO_BROWSE_FIRST | MQGMO_BROWSE_NEXT | MQGMO_BROWSE_MSG_UNDER_CURSOR);
        MQLONG type = browse || reason == MQRC_TRUNCATED_MSG_FAILED ? MQCBCT_MSG_NOT_REMOVED : MQCBCT_MSG_REMOVED;
        call(s, c, cb, md, gmo, c->data, type, comp, reason, MQCS_NONE, data_length, length);
    }
    pthread_mutex_lock(&c->lock);
    c->busy = 0;
    pthread_cond_broadcast(&c->changed);
    return broke ? -1 : 0;
}

/* The delivery loop, on the consumer thread or the caller's (MQOP_START_WAIT: `waiting`); it ends when the
 * connection stops (START_WAIT: also when suspended, or when no consumer is left: then MQRC_NO_CALLBACKS_ACTIVE). */
static MQLONG deliver(session *s, consumers *c, int waiting) {
    MQLONG reason = MQRC_NONE;
    pthread_mutex_lock(&c->lock);
    unsigned generation = c->generation;
    c->delivering = 1;
    c->deliverer = pthread_self();
    control_calls(s, c, MQCBCT_REGISTER_CALL, 0);
    control_calls(s, c, MQCBCT_START_CALL, MQCBDO_START_CALL);
    while (c->state != STOPPED && c->generation == generation && !(waiting && c->state == SUSPENDED)) {
        control_calls(s, c, MQCBCT_REGISTER_CALL, 0);
        long since = elapsed_ms(&c->resumed);
        if (since < GRACE_MS) {
            sleep_ms(c, (int)(GRACE_MS - since));
            continue;
        }
        callback cb;
        if (c->state == SUSPENDED || !next_consumer(c, &cb)) {
            if (waiting) {  /* every consumer deregistered or suspended: an implicit stop */
                c->state = STOPPED;
                reason = MQRC_NO_CALLBACKS_ACTIVE;
                break;
            }
            sleep_ms(c, SLICE_MS);
            continue;
        }
        if (consume_one(s, c, &cb) < 0) break;
    }
    if (c->generation != generation) {  /* a newer thread delivers now */
        pthread_mutex_unlock(&c->lock);
        return reason;
    }
    if (c->state == STOPPED) control_calls(s, c, MQCBCT_STOP_CALL, MQCBDO_STOP_CALL);
    c->delivering = 0;
    pthread_cond_broadcast(&c->changed);
    pthread_mutex_unlock(&c->lock);
    return reason;
}

static void *consumer_thread(void *argument) {
    session *s = argument;
    deliver(s, s->async, 0);
    session_release(s);  /* the reference MQCTL START took for this thread */
    return NULL;
}

/* Wait (lock held) until the deliverer is between messages, unless this is its thread. */
static void wait_quiet(consumers *c) {
    while (c->busy && !on_delivering_thread(c)) pthread_cond_wait(&c->changed, &c->lock);
}

/* Stop delivery; the caller holds the lock. A stop from another thread waits for the consumer thread to end. */
static void stop(consumers *c) {
    c->state = STOPPED;
    pthread_cond_broadcast(&c->changed);
    if (c->has_thread && !pthread_equal(c->thread, pthread_self())) {
        pthread_t thread = c->thread;
        c->has_thread = 0;
        pthread_mutex_unlock(&c->lock);
        pthread_join(thread, NULL);
        pthread_mutex_lock(&c->lock);
    } else if (c->has_thread) {  /* from a callback on the consumer thread: it ends once the callback returns */
        pthread_detach(c->thread);
        c->has_thread = 0;
    } else {
        wait_quiet(c);
    }
}

void consume_ctl(session *s, MQLONG operation, const uint8_t *ctlo, MQLONG *comp, MQLONG *reason) {
    consumers *c = state_of(s);
    *comp = MQCC_FAILED;
    if (c == NULL) { *reason = MQRC_STORAGE_NOT_AVAILABLE; return; }
    if (structure_length(ctlo, MQCTLO_STRUC_ID, CTLO_LENGTHS, 1) < 0) { *reason = MQRC_CTLO_ERROR; return; }
    *reason = MQRC_NONE;
    pthread_mutex_lock(&c->lock);
    int mine = on_delivering_thread(c);
    switch (operation) {
    case MQOP_START:
    case MQOP_START_WAIT: {
        if (c->state == SUSPENDED || (operation == MQOP_START_WAIT && c->state == STARTED)) {
            *reason = MQRC_OPERATION_NOT_ALLOWED;
            break;
        }
        if (c->state == STARTED) break;
        callback any;
        if (operation == MQOP_START_WAIT && !next_consumer(c, &any)) { *reason = MQRC_NO_CALLBACKS_ACTIVE; break; }
        c->connection_area = field_ptr(ctlo, OFS_MQCTLO_ConnectionArea);
        c->state = STARTED;
        if (mine) break;  /* from a callback: cancels the stop it issued */
        clock_gettime(CLOCK_MONOTONIC, &c->resumed);
        c->generation++;
        if (operation == MQOP_START_WAIT) {
            pthread_mutex_unlock(&c->lock);
            *reason = deliver(s, c, 1);
            pthread_mutex_lock(&c->lock);
            break;
        }
        session *held = session_acquire(s->local);  /* the thread's own reference */
        if (held == NULL || pthread_create(&c->thread, NULL, consumer_thread, s) != 0) {
            if (held != NULL) session_release(held);
            c->state = STOPPED;
            *reason = MQRC_RESOURCE_PROBLEM;
            break;
        }
        c->has_thread = 1;
        break;
    }
    case MQOP_STOP:
        if (c->state != STOPPED) stop(c);
        break;
    case MQOP_SUSPEND:
        if (c->state == STOPPED) { *reason = MQRC_OPERATION_NOT_ALLOWED; break; }
        c->state = SUSPENDED;
        pthread_cond_broadcast(&c->changed);
        wait_quiet(c);
        break;
    case MQOP_RESUME:
        if (c->state == STOPPED) { *reason = MQRC_OPERATION_NOT_ALLOWED; break; }
        c->state = STARTED;
        if (!mine) clock_gettime(CLOCK_MONOTONIC, &c->resumed);
        pthread_cond_broadcast(&c->changed);
        break;
    default:
        *reason = MQRC_OPERATION_ERROR;
    }
    pthread_mutex_unlock(&c->lock);
    *comp = *reason == MQRC_NONE ? MQCC_OK : MQCC_FAILED;
}

/* MQCLOSE of an object: its callback is deregistered (with its deregister call) first. */
void consume_closing(session *s, MQHOBJ hobj) {
    consumers *c = s->async;
    if (c == NULL) return;
    pthread_mutex_lock(&c->lock);
    int registered = hobj != MQHO_NONE && find(c, hobj) != NULL;
    pthread_mutex_unlock(&c->lock);
    if (registered) {
        MQLONG comp, reason;
        consume_cb(s, MQOP_DEREGISTER, NULL, hobj, NULL, NULL, &comp, &reason);
    }
}

/* MQDISC: delivery stops (with its stop calls), every callback is deregistered (with its calls), the consumer's
 * socket closes. */
void consume_end(session *s) {
    consumers *c = s->async;
    if (c == NULL) return;
    pthread_mutex_lock(&c->lock);
    if (c->state != STOPPED) stop(c);
    callback *list = c->list;
    c->list = NULL;
    pthread_mutex_unlock(&c->lock);
    while (list != NULL) {
        callback *cb = list;
        list = cb->next;
        if (cb->register_pending) control_call(s, c, cb, MQCBCT_REGISTER_CALL);
        if (cb->options & MQCBDO_DEREGISTER_CALL) control_call(s, c, cb, MQCBCT_DEREGISTER_CALL);
        free(cb);
    }
    pthread_mutex_lock(&c->lock);
    if (c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    pthread_mutex_unlock(&c->lock);
}

/* The session is gone (its last reference): its consumers' state goes with it. */
void consume_free(session *s) {
    consumers *c = s->async;
    if (c == NULL) return;
    while (c->list != NULL) {
        callback *next = c->list->next;
        free(c->list);
        c->list = next;
    }
    if (c->fd >= 0) close(c->fd);
    free(c->reply);
    free(c->data);
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->changed);
    free(c);
    s->async = NULL;
}
