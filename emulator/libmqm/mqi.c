/* libmqm: IBM MQ's C MQI (the 23 calls IBM's language bindings use) as a client of the emulator's session
 * protocol (docs/emulator.md, "Any language: libmqm" and "The session protocol").
 *
 * Each call sends its structures as the caller's memory holds them, at the length of the version the caller set
 * (a structure whose StrucId or Version is not IBM's is that structure's error reason, and is never read further);
 * every string a structure points to (an MQCHARV, the MQCSP's user and password) travels by value in its own item,
 * and the listener never sees an address it could use. What comes back is copied into the caller's memory, never
 * beyond the lengths the caller gave, and the caller's pointers are kept as they were. A call never crashes on a
 * connection that broke: it fails with MQRC_CONNECTION_BROKEN. */
#define _GNU_SOURCE
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libmqm.h"

#define SET(cc, rc) do { if (pCompCode) *pCompCode = (cc); if (pReason) *pReason = (rc); } while (0)
#define FAIL(rc) SET(MQCC_FAILED, rc)
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const int OD_LENGTHS[] = {MQOD_LENGTH_1, MQOD_LENGTH_2, MQOD_LENGTH_3, MQOD_LENGTH_4};
const int MD_LENGTHS[] = {MQMD_LENGTH_1, MQMD_LENGTH_2};
static const int PMO_LENGTHS[] = {MQPMO_LENGTH_1, MQPMO_LENGTH_2, MQPMO_LENGTH_3};
const int GMO_LENGTHS[] = {MQGMO_LENGTH_1, MQGMO_LENGTH_2, MQGMO_LENGTH_3, MQGMO_LENGTH_4};
static const int SD_LENGTHS[] = {MQSD_LENGTH_1};
static const int SRO_LENGTHS[] = {MQSRO_LENGTH_1};
static const int STS_LENGTHS[] = {MQSTS_LENGTH_1, MQSTS_LENGTH_2};
static const int CMHO_LENGTHS[] = {MQCMHO_LENGTH_1};
static const int DMHO_LENGTHS[] = {MQDMHO_LENGTH_1};
static const int SMPO_LENGTHS[] = {MQSMPO_LENGTH_1};
static const int IMPO_LENGTHS[] = {MQIMPO_LENGTH_1};
static const int DMPO_LENGTHS[] = {MQDMPO_LENGTH_1};
static const int PD_LENGTHS[] = {MQPD_LENGTH_1};
const int CBD_LENGTHS[] = {MQCBD_LENGTH_1};
const int CTLO_LENGTHS[] = {MQCTLO_LENGTH_1};
static const int BO_LENGTHS[] = {MQBO_LENGTH_1};
static const int CNO_LENGTHS[] = {MQCNO_LENGTH_1, MQCNO_LENGTH_2, MQCNO_LENGTH_3, MQCNO_LENGTH_4, MQCNO_LENGTH_5,
                                  MQCNO_LENGTH_6, MQCNO_LENGTH_7, MQCNO_LENGTH_8};
static const int CSP_LENGTHS[] = {MQCSP_LENGTH_1, MQCSP_LENGTH_2, MQCSP_LENGTH_3};

/* Where the caller's pointers lie in each structure (kept when a returned structure is copied back): a plain
 * pointer keeps 8 bytes; an MQCHARV keeps 16 (its pointer, offset and buffer size). */
typedef struct { int offset, size; } kept;
static const kept OD_KEPT[] = {{OFS_MQOD_ObjectRecPtr, 8}, {OFS_MQOD_ResponseRecPtr, 8}, {OFS_MQOD_ObjectString, 16},
                               {OFS_MQOD_SelectionString, 16}, {OFS_MQOD_ResObjectString, 16}, {0, 0}};
static const kept PMO_KEPT[] = {{OFS_MQPMO_PutMsgRecPtr, 8}, {OFS_MQPMO_ResponseRecPtr, 8}, {0, 0}};
static const kept SD_KEPT[] = {{OFS_MQSD_ObjectString, 16}, {OFS_MQSD_SubName, 16}, {OFS_MQSD_SubUserData, 16},
                               {OFS_MQSD_SelectionString, 16}, {OFS_MQSD_ResObjectString, 16}, {0, 0}};
static const kept STS_KEPT[] = {{OFS_MQSTS_ObjectString, 16}, {OFS_MQSTS_SubName, 16}, {0, 0}};
static const kept IMPO_KEPT[] = {{OFS_MQIMPO_ReturnedName, 16}, {0, 0}};
static const kept NONE_KEPT[] = {{0, 0}};

MQLONG field_i32(const void *structure, size_t offset) {
    MQLONG value;
    memcpy(&value, (const uint8_t *)structure + offset, sizeof value);
    return value;
}

void *field_ptr(const void *structure, size_t offset) {
    void *value;
    memcpy(&value, (const uint8_t *)structure + offset, sizeof value);
    return value;
}

static void set_i32(void *structure, size_t offset, MQLONG value) {
    memcpy((uint8_t *)structure + offset, &value, sizeof value);
}

/* The length of a structure by its Version, or -1 when it is missing, its StrucId is not eye or its version not
 * one IBM defines (then it is not read beyond its first 8 bytes). */
int structure_length(const void *structure, const char *eye, const int *lengths, int versions) {
    if (structure == NULL || memcmp(structure, eye, 4) != 0) return -1;
    MQLONG version = field_i32(structure, 4);
    return version >= 1 && version <= versions ? lengths[version - 1] : -1;
}

/* A returned structure over the caller's (at most the caller's length), the caller's pointers kept. */
static void take_back(void *mine, int length, const uint8_t *theirs, uint32_t their_length, const kept *keep) {
    uint8_t saved[8][16];
    int n = 0;
    for (const kept *k = keep; k->size && n < 8; k++, n++)
        if (k->offset + k->size <= length) memcpy(saved[n], (uint8_t *)mine + k->offset, (size_t)k->size);
    if (theirs != NULL) memcpy(mine, theirs, their_length < (uint32_t)length ? their_length : (uint32_t)length);
    n = 0;
    for (const kept *k = keep; k->size && n < 8; k++, n++)
        if (k->offset + k->size <= length) memcpy((uint8_t *)mine + k->offset, saved[n], (size_t)k->size);
}

/* The string an MQCHARV in a structure (or standing alone) points to: 0, or -1 when it cannot be read (a
 * negative length, a length with no pointer or offset, longer than any MQ string). */
static int charv_in(const uint8_t *base, size_t at, const void **data, size_t *length) {
    const char *pointer = field_ptr(base, at + OFS_MQCHARV_VSPtr);
    MQLONG offset = field_i32(base, at + OFS_MQCHARV_VSOffset);
    MQLONG size = field_i32(base, at + OFS_MQCHARV_VSLength);
    const char *source = pointer != NULL ? pointer : offset > 0 ? (const char *)base + offset : NULL;
    *data = "";
    *length = 0;
    if (size == 0) return 0;
    if (source == NULL) return size == MQVS_NULL_TERMINATED ? 0 : -1;
    if (size == MQVS_NULL_TERMINATED) size = (MQLONG)strnlen(source, MAX_STRING_BYTES);
    if (size < 0 || (uint32_t)size > MAX_STRING_BYTES) return -1;
    *data = source;
    *length = (size_t)size;
    return 0;
}

/* The caller's buffer for a returned MQCHARV string and its size (0 when it gave none). */
static size_t charv_room(const uint8_t *base, size_t at, char **buffer) {
    char *pointer = field_ptr(base, at + OFS_MQCHARV_VSPtr);
    MQLONG offset = field_i32(base, at + OFS_MQCHARV_VSOffset);
    MQLONG size = field_i32(base, at + OFS_MQCHARV_VSBufSize);
    *buffer = pointer != NULL ? pointer : offset > 0 ? (char *)base + offset : NULL;
    return *buffer != NULL && size > 0 ? (size_t)size : 0;
}

/* A returned string into the caller's MQCHARV buffer (as much as fits), its full length in VSLength; an empty one
 * (the listener did not produce it) leaves the caller's buffer and VSLength alone. */
static void charv_out(uint8_t *base, size_t at, const uint8_t *data, uint32_t length) {
    char *buffer;
    if (length == 0) return;
    size_t room = charv_room(base, at, &buffer);
    if (room && data != NULL) memcpy(buffer, data, length < room ? length : room);
    set_i32(base, at + OFS_MQCHARV_VSLength, (MQLONG)length);
}

/* -- calls on a connection ------------------------------------------------------------------------------ */

/* The session of hconn, counted; NULL (and the call failed) when it is not a connection of this process, or its
 * consumers are started and this is not their thread. */
static session *use(MQHCONN hconn, PMQLONG pCompCode, PMQLONG pReason) {
    session *s = session_acquire(hconn);
    if (s == NULL) FAIL(MQRC_HCONN_ERROR);
    else if (consume_active_elsewhere(s)) {  /* started consumers own the connection (MQCTL) */
        session_release(s);
        FAIL(MQRC_HCONN_ASYNC_ACTIVE);
        s = NULL;
    }
    return s;
}

/* The session of Hconn (see use) and a request of `verb` on it begun with the listener's handle. */
static session *start(int verb, MQHCONN Hconn, frame *f, PMQLONG pCompCode, PMQLONG pReason) {
    session *s = use(Hconn, pCompCode, pReason);
    if (s != NULL) {
        frame_start(f, verb);
        frame_i32(f, s->remote);
    }
    return s;
}

/* Send a request (unless `refused`, a reason found in the caller's arguments while building it): 0 with CompCode
 * and Reason set and the session locked for reading the outputs (finish then releases it), or -1 with the call
 * failed and everything released. */
static int ask(session *s, frame *f, answer *a, MQLONG refused, PMQLONG pCompCode, PMQLONG pReason) {
    if (refused != MQRC_NONE) {
        frame_free(f);
        session_release(s);
        FAIL(refused);
        return -1;
    }
    if (session_call(s, f, a) < 0) {
        session_done(s);
        frame_free(f);
        FAIL(f->failed ? MQRC_STORAGE_NOT_AVAILABLE : MQRC_CONNECTION_BROKEN);
        session_release(s);
        return -1;
    }
    SET(a->comp, a->reason);
    return 0;
}

/* The outputs have been read: a reply whose outputs did not parse breaks the connection. */
static void finish(session *s, frame *f, answer *a, PMQLONG pCompCode, PMQLONG pReason) {
    if (a->out.bad) {
        s->broken = 1;
        shutdown(s->fd, SHUT_RDWR);
        FAIL(MQRC_CONNECTION_BROKEN);
    }
    session_done(s);
    frame_free(f);
    session_release(s);
}

/* -- connecting ----------------------------------------------------------------------------------------- */

/* A character field of the caller's (it may be shorter than the field when it ends with a NUL), padded. */
static void padded(const char *from, size_t size, char *to) {
    size_t n = from != NULL ? strnlen(from, size) : 0;
    memcpy(to, from, n);
    memset(to + n, ' ', size - n);
}

/* The program's name (the rightmost characters of its path), as IBM's client reports ApplName. */
static void program_name(char *out) {
    char path[4096] = "";
    FILE *file = fopen("/proc/self/cmdline", "rb");
    size_t got = file ? fread(path, 1, sizeof path - 1, file) : 0;
    if (file) fclose(file);
    path[got] = 0;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = strlen(name);
    if (n > MQ_APPL_NAME_LENGTH) name += n - MQ_APPL_NAME_LENGTH;
    padded(name, MQ_APPL_NAME_LENGTH, out);
}

/* The user this process runs as (a put's UserIdentifier when no MQCSP user is given). */
static void process_user(char *out, size_t size) {
    struct passwd entry, *found = NULL;
    char scratch[4096];
    if (getpwuid_r(geteuid(), &entry, scratch, sizeof scratch, &found) == 0 && found != NULL)
        snprintf(out, size, "%s", found->pw_name);
    else
        snprintf(out, size, "%u", (unsigned)geteuid());
}

/* A string of the MQCSP (pointer, or offset from its start, and length): 0, or -1 when it cannot be read. */
static int csp_string(const uint8_t *csp, size_t ptr_at, size_t offset_at, size_t length_at, const char **data,
                      size_t *length) {
    const char *pointer = field_ptr(csp, ptr_at);
    MQLONG offset = field_i32(csp, offset_at), size = field_i32(csp, length_at);
    *data = pointer != NULL ? pointer : offset > 0 ? (const char *)csp + offset : NULL;
    *length = 0;
    if (size == 0 || *data == NULL) return size > 0 ? -1 : 0;
    if (size < 0 || size > 4096) return -1;
    *length = strnlen(*data, (size_t)size);
    return 0;
}

void MQCONNX(PMQCHAR pQMgrName, PMQVOID pConnectOpts, PMQHCONN pHconn, PMQLONG pCompCode, PMQLONG pReason) {
    const uint8_t *cno = pConnectOpts, *cd = NULL, *csp = NULL;
    int cno_length = cno ? structure_length(cno, MQCNO_STRUC_ID, CNO_LENGTHS, COUNT(CNO_LENGTHS)) : 0;
    if (pHconn == NULL) { FAIL(MQRC_HCONN_ERROR); return; }
    *pHconn = MQHC_UNUSABLE_HCONN;
    if (cno_length < 0) { FAIL(MQRC_CNO_ERROR); return; }
    MQLONG version = cno ? field_i32(cno, 4) : 0;
    if (version >= 2) {
        cd = field_ptr(cno, OFS_MQCNO_ClientConnPtr);
        MQLONG offset = field_i32(cno, OFS_MQCNO_ClientConnOffset);
        if (cd == NULL && offset > 0) cd = cno + offset;
    }
    if (version >= 5) {
        csp = field_ptr(cno, OFS_MQCNO_SecurityParmsPtr);
        MQLONG offset = field_i32(cno, OFS_MQCNO_SecurityParmsOffset);
        if (csp == NULL && offset > 0) csp = cno + offset;
    }
    const char *user = "", *password = "";
    size_t user_length = 0, password_length = 0;
    if (csp != NULL) {
        if (structure_length(csp, MQCSP_STRUC_ID, CSP_LENGTHS, COUNT(CSP_LENGTHS)) < 0) { FAIL(MQRC_CSP_ERROR); return; }
        if (field_i32(csp, OFS_MQCSP_AuthenticationType) == MQCSP_AUTH_USER_ID_AND_PWD &&
            (csp_string(csp, OFS_MQCSP_CSPUserIdPtr, OFS_MQCSP_CSPUserIdOffset, OFS_MQCSP_CSPUserIdLength, &user,
                        &user_length) < 0 ||
             csp_string(csp, OFS_MQCSP_CSPPasswordPtr, OFS_MQCSP_CSPPasswordOffset, OFS_MQCSP_CSPPasswordLength,
                        &password, &password_length) < 0)) {
            FAIL(MQRC_CSP_ERROR);
            return;
        }
    }
    char name[MQ_Q_MGR_NAME_LENGTH], wanted[MQ_Q_MGR_NAME_LENGTH + 1];
    padded(pQMgrName, MQ_Q_MGR_NAME_LENGTH, name);
    size_t n = MQ_Q_MGR_NAME_LENGTH;
    while (n > 0 && name[n - 1] == ' ') n--;
    memcpy(wanted, name, n);
    wanted[n] = 0;
    if (wanted[0] == '*') memset(name, ' ', sizeof name);  /* a queue-manager group: whichever one answers */

    route *routes = calloc(MAX_ROUTES, sizeof *routes);
    int count = 0;
    if (routes == NULL) { FAIL(MQRC_STORAGE_NOT_AVAILABLE); return; }
    MQLONG reason = find_routes(wanted, cno, cd, routes, &count);
    int fd = -1, tcp = 0, tried_tcp = 0, chosen = -1;
    MQLONG answered = MQRC_NONE;  /* the first address that answered but is no listener: why */
    session *s = reason == MQRC_NONE ? calloc(1, sizeof *s) : NULL;
    if (reason == MQRC_NONE && s == NULL) reason = MQRC_STORAGE_NOT_AVAILABLE;
    for (int i = 0; reason == MQRC_NONE && i < count && chosen < 0; i++) {
        if (routes[i].tls) {
            reason = MQRC_SSL_INITIALIZATION_ERROR;  /* never in clear: the emulator has no TLS */
            break;
        }
        fd = wire_connect(routes[i].address, &tcp);
        tried_tcp |= tcp;
        if (fd < 0) continue;
        MQLONG said = wire_hello(fd, &s->reply, &s->reply_cap);  /* something else there: the next address */
        if (said == MQRC_NONE) {
            chosen = i;
        } else {
            close(fd);
            fd = -1;
            if (answered == MQRC_NONE) answered = said;
        }
    }
    if (reason == MQRC_NONE && chosen < 0)
        reason = answered != MQRC_NONE ? answered : tried_tcp ? MQRC_HOST_NOT_AVAILABLE : MQRC_Q_MGR_NOT_AVAILABLE;
    if (reason != MQRC_NONE) {
        if (fd >= 0) close(fd);
        if (s != NULL) free(s->reply);
        free(s);
        free(routes);
        FAIL(reason);
        return;
    }
    s->fd = fd;
    pthread_mutex_init(&s->lock, NULL);
    snprintf(s->address, sizeof s->address, "%s", routes[chosen].address);
    char channel[MQ_CHANNEL_NAME_LENGTH], appl[MQ_APPL_NAME_LENGTH];
    padded(routes[chosen].channel, MQ_CHANNEL_NAME_LENGTH, channel);
    free(routes);
    if (version >= 7 && ((const char *)cno)[OFS_MQCNO_ApplName] != ' ' && ((const char *)cno)[OFS_MQCNO_ApplName])
        padded((const char *)cno + OFS_MQCNO_ApplName, MQ_APPL_NAME_LENGTH, appl);
    else
        program_name(appl);

    frame f;
    answer a;
    frame_start(&f, V_CONNX);
    frame_bytes(&f, name, sizeof name);
    frame_bytes(&f, cno, (size_t)cno_length);
    frame_bytes(&f, user, user_length);
    frame_bytes(&f, password, password_length);
    frame_bytes(&f, channel, sizeof channel);
    frame_bytes(&f, appl, sizeof appl);
    char os_user[256];
    process_user(os_user, sizeof os_user);
    frame_bytes(&f, os_user, strlen(os_user));
    MQLONG comp = MQCC_FAILED;
    if (wire_exchange(fd, &f, ++s->next_tag, &s->reply, &s->reply_cap, &a) < 0) {
        reason = MQRC_Q_MGR_NOT_AVAILABLE;
    } else {
        comp = a.comp;
        reason = a.reason;
        s->remote = read_i32(&a.out);
        uint32_t token_length;
        const uint8_t *token = read_bytes(&a.out, &token_length);
        if (a.out.bad) comp = MQCC_FAILED, reason = MQRC_Q_MGR_NOT_AVAILABLE;
        else if (token != NULL) memcpy(s->token, token, token_length < 16 ? token_length : 16);
    }
    frame_free(&f);
    if (comp == MQCC_FAILED) {
        close(fd);
        pthread_mutex_destroy(&s->lock);
        free(s->reply);
        free(s);
        FAIL(reason);
        return;
    }
    *pHconn = session_register(s);
    if (*pHconn == MQHC_UNUSABLE_HCONN) {  /* this process holds as many connections as it may */
        close(fd);
        free(s->reply);
        free(s);
        FAIL(MQRC_RESOURCE_PROBLEM);
        return;
    }
    SET(comp, reason);
}

void MQCONN(PMQCHAR pQMgrName, PMQHCONN pHconn, PMQLONG pCompCode, PMQLONG pReason) {
    MQCONNX(pQMgrName, NULL, pHconn, pCompCode, pReason);
}

void MQDISC(PMQHCONN pHconn, PMQLONG pCompCode, PMQLONG pReason) {
    if (pHconn == NULL) { FAIL(MQRC_HCONN_ERROR); return; }
    session *s = use(*pHconn, pCompCode, pReason);
    if (s == NULL) return;
    consume_end(s);  /* its consumers stop (with their calls) before the connection goes */
    frame f;
    answer a;
    frame_start(&f, V_DISC);
    frame_i32(&f, s->remote);
    MQLONG comp = MQCC_FAILED, reason = MQRC_CONNECTION_BROKEN;
    if (session_call(s, &f, &a) == 0) comp = a.comp, reason = a.reason;
    session_done(s);
    frame_free(&f);
    if (comp != MQCC_FAILED || reason == MQRC_CONNECTION_BROKEN) {
        session_close(s);
        session_forget(s);
        *pHconn = MQHC_UNUSABLE_HCONN;
    }
    session_release(s);
    SET(comp, reason);
}

/* -- objects -------------------------------------------------------------------------------------------- */

/* The MQOD's strings (ObjectString and SelectionString of a version-4 MQOD) as items; MQRC_NONE or the reason. */
static MQLONG od_strings(frame *f, const uint8_t *od, int length) {
    const void *object = "", *selection = "";
    size_t object_length = 0, selection_length = 0;
    if (length >= MQOD_LENGTH_4) {
        if (charv_in(od, OFS_MQOD_ObjectString, &object, &object_length) < 0) return MQRC_OBJECT_STRING_ERROR;
        if (charv_in(od, OFS_MQOD_SelectionString, &selection, &selection_length) < 0)
            return MQRC_SELECTION_STRING_ERROR;
    }
    frame_bytes(f, object, object_length);
    frame_bytes(f, selection, selection_length);
    return MQRC_NONE;
}

void MQOPEN(MQHCONN Hconn, PMQVOID pObjDesc, MQLONG Options, PMQHOBJ pHobj, PMQLONG pCompCode, PMQLONG pReason) {
    uint8_t *od = pObjDesc;
    int length = structure_length(od, MQOD_STRUC_ID, OD_LENGTHS, COUNT(OD_LENGTHS));
    if (length < 0) { FAIL(MQRC_OD_ERROR); return; }
    if (pHobj == NULL) { FAIL(MQRC_HOBJ_ERROR); return; }
    frame f;
    answer a;
    session *s = start(V_OPEN, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    char *room = NULL;
    size_t result_room = length >= MQOD_LENGTH_4 ? charv_room(od, OFS_MQOD_ResObjectString, &room) : 0;
    frame_bytes(&f, od, (size_t)length);
    frame_i32(&f, Options);
    MQLONG reason = od_strings(&f, od, length);
    frame_i32(&f, (int32_t)result_room);
    if (ask(s, &f, &a, reason, pCompCode, pReason) < 0) return;
    uint32_t n, resolved_length;
    const uint8_t *returned = read_bytes(&a.out, &n);
    MQHOBJ hobj = read_i32(&a.out);
    const uint8_t *resolved = read_bytes(&a.out, &resolved_length);
    if (!a.out.bad) {
        take_back(od, length, returned, n, OD_KEPT);
        if (length >= MQOD_LENGTH_4) charv_out(od, OFS_MQOD_ResObjectString, resolved, resolved_length);
        *pHobj = hobj;
    }
    finish(s, &f, &a, pCompCode, pReason);
}

void MQCLOSE(MQHCONN Hconn, PMQHOBJ pHobj, MQLONG Options, PMQLONG pCompCode, PMQLONG pReason) {
    if (pHobj == NULL) { FAIL(MQRC_HOBJ_ERROR); return; }
    frame f;
    answer a;
    session *s = start(V_CLOSE, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    consume_closing(s, *pHobj);  /* a callback registered for the object is deregistered first, as IBM's is */
    frame_i32(&f, *pHobj);
    frame_i32(&f, Options);
    if (ask(s, &f, &a, MQRC_NONE, pCompCode, pReason) < 0) return;
    MQHOBJ hobj = read_i32(&a.out);
    if (!a.out.bad) *pHobj = hobj;
    finish(s, &f, &a, pCompCode, pReason);
}

/* -- messages ------------------------------------------------------------------------------------------- */

void MQPUT(MQHCONN Hconn, MQHOBJ Hobj, PMQVOID pMsgDesc, PMQVOID pPutMsgOpts, MQLONG BufferLength,
           PMQVOID pBuffer, PMQLONG pCompCode, PMQLONG pReason) {
    uint8_t *md = pMsgDesc, *pmo = pPutMsgOpts;
    int md_length = structure_length(md, MQMD_STRUC_ID, MD_LENGTHS, 2);
    int pmo_length = structure_length(pmo, MQPMO_STRUC_ID, PMO_LENGTHS, COUNT(PMO_LENGTHS));
    if (md_length < 0) { FAIL(MQRC_MD_ERROR); return; }
    if (pmo_length < 0) { FAIL(MQRC_PMO_ERROR); return; }
    if (BufferLength < 0) { FAIL(MQRC_BUFFER_LENGTH_ERROR); return; }
    if (BufferLength > 0 && pBuffer == NULL) { FAIL(MQRC_BUFFER_ERROR); return; }
    frame f;
    answer a;
    session *s = start(V_PUT, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    frame_i32(&f, Hobj);
    frame_bytes(&f, md, (size_t)md_length);
    frame_bytes(&f, pmo, (size_t)pmo_length);
    frame_bytes(&f, pBuffer, (size_t)BufferLength);
    if (ask(s, &f, &a, MQRC_NONE, pCompCode, pReason) < 0) return;
    uint32_t n1, n2;
    const uint8_t *md_back = read_bytes(&a.out, &n1), *pmo_back = read_bytes(&a.out, &n2);
    if (!a.out.bad) {
        take_back(md, md_length, md_back, n1, NONE_KEPT);
        take_back(pmo, pmo_length, pmo_back, n2, PMO_KEPT);
    }
    finish(s, &f, &a, pCompCode, pReason);
}

void MQPUT1(MQHCONN Hconn, PMQVOID pObjDesc, PMQVOID pMsgDesc, PMQVOID pPutMsgOpts, MQLONG BufferLength,
            PMQVOID pBuffer, PMQLONG pCompCode, PMQLONG pReason) {
    uint8_t *od = pObjDesc, *md = pMsgDesc, *pmo = pPutMsgOpts;
    int od_length = structure_length(od, MQOD_STRUC_ID, OD_LENGTHS, COUNT(OD_LENGTHS));
    int md_length = structure_length(md, MQMD_STRUC_ID, MD_LENGTHS, 2);
    int pmo_length = structure_length(pmo, MQPMO_STRUC_ID, PMO_LENGTHS, COUNT(PMO_LENGTHS));
    if (od_length < 0) { FAIL(MQRC_OD_ERROR); return; }
    if (md_length < 0) { FAIL(MQRC_MD_ERROR); return; }
    if (pmo_length < 0) { FAIL(MQRC_PMO_ERROR); return; }
    if (BufferLength < 0) { FAIL(MQRC_BUFFER_LENGTH_ERROR); return; }
    if (BufferLength > 0 && pBuffer == NULL) { FAIL(MQRC_BUFFER_ERROR); return; }
    frame f;
    answer a;
    session *s = start(V_PUT1, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    frame_bytes(&f, od, (size_t)od_length);
    MQLONG reason = od_strings(&f, od, od_length);
    frame_bytes(&f, md, (size_t)md_length);
    frame_bytes(&f, pmo, (size_t)pmo_length);
    frame_bytes(&f, pBuffer, (size_t)BufferLength);
    if (ask(s, &f, &a, reason, pCompCode, pReason) < 0) return;
    uint32_t n1, n2, n3;
    const uint8_t *od_back = read_bytes(&a.out, &n1), *md_back = read_bytes(&a.out, &n2),
                  *pmo_back = read_bytes(&a.out, &n3);
    if (!a.out.bad) {
        take_back(od, od_length, od_back, n1, OD_KEPT);
        take_back(md, md_length, md_back, n2, NONE_KEPT);
        take_back(pmo, pmo_length, pmo_back, n3, PMO_KEPT);
    }
    finish(s, &f, &a, pCompCode, pReason);
}

/* MQGET on a socket of the session: the main one, or the consumer thread's own (consume.c). */
void get_on(session *s, int fd, uint8_t **reply, size_t *reply_cap, MQHOBJ Hobj, uint8_t *md, int md_length,
            uint8_t *gmo, int gmo_length, MQLONG BufferLength, PMQVOID pBuffer, PMQLONG pDataLength,
            PMQLONG pCompCode, PMQLONG pReason, uint32_t *tag) {
    frame f;
    answer a;
    frame_start(&f, V_GET);
    frame_i32(&f, s->remote);
    frame_i32(&f, Hobj);
    frame_bytes(&f, md, (size_t)md_length);
    frame_bytes(&f, gmo, (size_t)gmo_length);
    frame_i32(&f, BufferLength);
    int failed = f.failed || wire_exchange(fd, &f, ++*tag, reply, reply_cap, &a) < 0;
    frame_free(&f);
    if (failed) { FAIL(f.failed ? MQRC_STORAGE_NOT_AVAILABLE : MQRC_CONNECTION_BROKEN); return; }
    SET(a.comp, a.reason);
    uint32_t n1, n2, data_length;
    const uint8_t *md_back = read_bytes(&a.out, &n1), *gmo_back = read_bytes(&a.out, &n2);
    const uint8_t *data = read_bytes(&a.out, &data_length);
    MQLONG full = read_i32(&a.out);
    if (a.out.bad) { FAIL(MQRC_CONNECTION_BROKEN); return; }
    take_back(md, md_length, md_back, n1, NONE_KEPT);
    take_back(gmo, gmo_length, gmo_back, n2, NONE_KEPT);
    if (data_length > (uint32_t)BufferLength) data_length = (uint32_t)BufferLength;
    if (data_length) memcpy(pBuffer, data, data_length);
    *pDataLength = full;
}

void MQGET(MQHCONN Hconn, MQHOBJ Hobj, PMQVOID pMsgDesc, PMQVOID pGetMsgOpts, MQLONG BufferLength,
           PMQVOID pBuffer, PMQLONG pDataLength, PMQLONG pCompCode, PMQLONG pReason) {
    uint8_t *md = pMsgDesc, *gmo = pGetMsgOpts;
    int md_length = structure_length(md, MQMD_STRUC_ID, MD_LENGTHS, 2);
    int gmo_length = structure_length(gmo, MQGMO_STRUC_ID, GMO_LENGTHS, COUNT(GMO_LENGTHS));
    if (md_length < 0) { FAIL(MQRC_MD_ERROR); return; }
    if (gmo_length < 0) { FAIL(MQRC_GMO_ERROR); return; }
    if (BufferLength < 0) { FAIL(MQRC_BUFFER_LENGTH_ERROR); return; }
    if (BufferLength > 0 && pBuffer == NULL) { FAIL(MQRC_BUFFER_ERROR); return; }
    if (pDataLength == NULL) { FAIL(MQRC_DATA_LENGTH_ERROR); return; }
    session *s = use(Hconn, pCompCode, pReason);
    if (s == NULL) return;
    pthread_mutex_lock(&s->lock);
    if (s->broken) FAIL(MQRC_CONNECTION_BROKEN);
    else {
        get_on(s, s->fd, &s->reply, &s->reply_cap, Hobj, md, md_length, gmo, gmo_length, BufferLength, pBuffer,
               pDataLength, pCompCode, pReason, &s->next_tag);
        if (pReason && *pReason == MQRC_CONNECTION_BROKEN && pCompCode && *pCompCode == MQCC_FAILED) {
            s->broken = 1;
            shutdown(s->fd, SHUT_RDWR);
        }
    }
    pthread_mutex_unlock(&s->lock);
    session_release(s);
}

/* -- attributes ----------------------------------------------------------------------------------------- */

static int attribute_arguments(MQLONG SelectorCount, PMQLONG pSelectors, MQLONG IntAttrCount, PMQLONG pIntAttrs,
                               MQLONG CharAttrLength, PMQCHAR pCharAttrs, PMQLONG pCompCode, PMQLONG pReason) {
    MQLONG reason = SelectorCount < 0 || SelectorCount > 256 ? MQRC_SELECTOR_COUNT_ERROR
                    : SelectorCount > 0 && pSelectors == NULL ? MQRC_SELECTOR_ERROR
                    : IntAttrCount < 0 || IntAttrCount > 256 ? MQRC_INT_ATTR_COUNT_ERROR
                    : IntAttrCount > 0 && pIntAttrs == NULL ? MQRC_INT_ATTRS_ARRAY_ERROR
                    : CharAttrLength < 0 ? MQRC_CHAR_ATTR_LENGTH_ERROR
                    : CharAttrLength > 0 && pCharAttrs == NULL ? MQRC_CHAR_ATTRS_ERROR : MQRC_NONE;
    if (reason != MQRC_NONE) FAIL(reason);
    return reason != MQRC_NONE;
}

void MQINQ(MQHCONN Hconn, MQHOBJ Hobj, MQLONG SelectorCount, PMQLONG pSelectors, MQLONG IntAttrCount,
           PMQLONG pIntAttrs, MQLONG CharAttrLength, PMQCHAR pCharAttrs, PMQLONG pCompCode, PMQLONG pReason) {
    if (attribute_arguments(SelectorCount, pSelectors, IntAttrCount, pIntAttrs, CharAttrLength, pCharAttrs,
                            pCompCode, pReason)) return;
    frame f;
    answer a;
    session *s = start(V_INQ, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    frame_i32(&f, Hobj);
    frame_bytes(&f, pSelectors, (size_t)SelectorCount * 4);
    frame_i32(&f, IntAttrCount);
    frame_i32(&f, CharAttrLength);
    if (ask(s, &f, &a, MQRC_NONE, pCompCode, pReason) < 0) return;
    uint32_t ints_length, chars_length;
    const uint8_t *ints = read_bytes(&a.out, &ints_length), *chars = read_bytes(&a.out, &chars_length);
    if (!a.out.bad) {
        if (ints_length > (uint32_t)IntAttrCount * 4) ints_length = (uint32_t)IntAttrCount * 4;
        if (chars_length > (uint32_t)CharAttrLength) chars_length = (uint32_t)CharAttrLength;
        if (ints_length) memcpy(pIntAttrs, ints, ints_length & ~3u);
        if (chars_length) memcpy(pCharAttrs, chars, chars_length);
    }
    finish(s, &f, &a, pCompCode, pReason);
}

void MQSET(MQHCONN Hconn, MQHOBJ Hobj, MQLONG SelectorCount, PMQLONG pSelectors, MQLONG IntAttrCount,
           PMQLONG pIntAttrs, MQLONG CharAttrLength, PMQCHAR pCharAttrs, PMQLONG pCompCode, PMQLONG pReason) {
    if (attribute_arguments(SelectorCount, pSelectors, IntAttrCount, pIntAttrs, CharAttrLength, pCharAttrs,
                            pCompCode, pReason)) return;
    frame f;
    answer a;
    session *s = start(V_SET, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    frame_i32(&f, Hobj);
    frame_bytes(&f, pSelectors, (size_t)SelectorCount * 4);
    frame_bytes(&f, pIntAttrs, (size_t)IntAttrCount * 4);
    frame_bytes(&f, pCharAttrs, (size_t)CharAttrLength);
    if (ask(s, &f, &a, MQRC_NONE, pCompCode, pReason) < 0) return;
    finish(s, &f, &a, pCompCode, pReason);
}

/* -- units of work -------------------------------------------------------------------------------------- */

static void simple(int verb, MQHCONN Hconn, const void *options, int options_length, PMQLONG pCompCode,
                   PMQLONG pReason) {
    frame f;
    answer a;
    session *s = start(verb, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    if (options_length >= 0) frame_bytes(&f, options, (size_t)options_length);
    if (ask(s, &f, &a, MQRC_NONE, pCompCode, pReason) < 0) return;
    finish(s, &f, &a, pCompCode, pReason);
}

void MQBEGIN(MQHCONN Hconn, PMQVOID pBeginOptions, PMQLONG pCompCode, PMQLONG pReason) {
    int length = pBeginOptions ? structure_length(pBeginOptions, MQBO_STRUC_ID, BO_LENGTHS, 1) : 0;
    if (length < 0) { FAIL(MQRC_BO_ERROR); return; }
    simple(V_BEGIN, Hconn, pBeginOptions, length, pCompCode, pReason);
}

void MQCMIT(MQHCONN Hconn, PMQLONG pCompCode, PMQLONG pReason) {
    simple(V_CMIT, Hconn, NULL, -1, pCompCode, pReason);
}

void MQBACK(MQHCONN Hconn, PMQLONG pCompCode, PMQLONG pReason) {
    simple(V_BACK, Hconn, NULL, -1, pCompCode, pReason);
}

/* -- message handles and properties -------------------------------------------------------------------- */

void MQCRTMH(MQHCONN Hconn, PMQVOID pCrtMsgHOpts, PMQHMSG pHmsg, PMQLONG pCompCode, PMQLONG pReason) {
    int length = structure_length(pCrtMsgHOpts, MQCMHO_STRUC_ID, CMHO_LENGTHS, 1);
    if (length < 0) { FAIL(MQRC_CMHO_ERROR); return; }
    if (pHmsg == NULL) { FAIL(MQRC_HMSG_ERROR); return; }
    frame f;
    answer a;
    session *s = start(V_CRTMH, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    frame_bytes(&f, pCrtMsgHOpts, (size_t)length);
    if (ask(s, &f, &a, MQRC_NONE, pCompCode, pReason) < 0) return;
    MQHMSG hmsg = read_i64(&a.out);
    if (!a.out.bad) *pHmsg = hmsg;
    finish(s, &f, &a, pCompCode, pReason);
}

void MQDLTMH(MQHCONN Hconn, PMQHMSG pHmsg, PMQVOID pDltMsgHOpts, PMQLONG pCompCode, PMQLONG pReason) {
    int length = structure_length(pDltMsgHOpts, MQDMHO_STRUC_ID, DMHO_LENGTHS, 1);
    if (pHmsg == NULL) { FAIL(MQRC_HMSG_ERROR); return; }
    if (length < 0) { FAIL(MQRC_DMHO_ERROR); return; }
    frame f;
    answer a;
    session *s = start(V_DLTMH, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    frame_i64(&f, *pHmsg);
    frame_bytes(&f, pDltMsgHOpts, (size_t)length);
    if (ask(s, &f, &a, MQRC_NONE, pCompCode, pReason) < 0) return;
    MQHMSG hmsg = read_i64(&a.out);
    if (!a.out.bad) *pHmsg = hmsg;
    finish(s, &f, &a, pCompCode, pReason);
}

/* A property name (an MQCHARV standing alone) as an item; MQRC_NONE or MQRC_PROPERTY_NAME_ERROR. */
static MQLONG name_item(frame *f, const void *pName) {
    const void *name;
    size_t length;
    if (pName == NULL || charv_in(pName, 0, &name, &length) < 0) return MQRC_PROPERTY_NAME_ERROR;
    frame_bytes(f, name, length);
    return MQRC_NONE;
}

void MQSETMP(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pSetPropOpts, PMQVOID pName, PMQVOID pPropDesc, MQLONG Type,
             MQLONG ValueLength, PMQVOID pValue, PMQLONG pCompCode, PMQLONG pReason) {
    int smpo_length = structure_length(pSetPropOpts, MQSMPO_STRUC_ID, SMPO_LENGTHS, 1);
    int pd_length = structure_length(pPropDesc, MQPD_STRUC_ID, PD_LENGTHS, 1);
    if (smpo_length < 0) { FAIL(MQRC_SMPO_ERROR); return; }
    if (pd_length < 0) { FAIL(MQRC_PD_ERROR); return; }
    if (ValueLength == MQVL_NULL_TERMINATED && Type == MQTYPE_STRING && pValue != NULL)
        ValueLength = (MQLONG)strnlen(pValue, MAX_STRING_BYTES);
    if (ValueLength < 0 || (uint32_t)ValueLength > MAX_STRING_BYTES) { FAIL(MQRC_BUFFER_LENGTH_ERROR); return; }
    if (ValueLength > 0 && pValue == NULL) { FAIL(MQRC_BUFFER_ERROR); return; }
    frame f;
    answer a;
    session *s = start(V_SETMP, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    frame_i64(&f, Hmsg);
    frame_bytes(&f, pSetPropOpts, (size_t)smpo_length);
    MQLONG reason = name_item(&f, pName);
    frame_bytes(&f, pPropDesc, (size_t)pd_length);
    frame_i32(&f, Type);
    frame_bytes(&f, pValue, (size_t)ValueLength);
    if (ask(s, &f, &a, reason, pCompCode, pReason) < 0) return;
    uint32_t n;
    const uint8_t *pd = read_bytes(&a.out, &n);
    if (!a.out.bad) take_back(pPropDesc, pd_length, pd, n, NONE_KEPT);
    finish(s, &f, &a, pCompCode, pReason);
}

void MQINQMP(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pInqPropOpts, PMQVOID pName, PMQVOID pPropDesc, PMQLONG pType,
             MQLONG ValueLength, PMQVOID pValue, PMQLONG pDataLength, PMQLONG pCompCode, PMQLONG pReason) {
    uint8_t *impo = pInqPropOpts;
    int impo_length = structure_length(impo, MQIMPO_STRUC_ID, IMPO_LENGTHS, 1);
    int pd_length = structure_length(pPropDesc, MQPD_STRUC_ID, PD_LENGTHS, 1);
    if (impo_length < 0) { FAIL(MQRC_IMPO_ERROR); return; }
    if (pd_length < 0) { FAIL(MQRC_PD_ERROR); return; }
    if (pType == NULL) { FAIL(MQRC_PROPERTY_TYPE_ERROR); return; }
    if (ValueLength < 0) { FAIL(MQRC_BUFFER_LENGTH_ERROR); return; }
    if (ValueLength > 0 && pValue == NULL) { FAIL(MQRC_BUFFER_ERROR); return; }
    if (pDataLength == NULL) { FAIL(MQRC_DATA_LENGTH_ERROR); return; }
    frame f;
    answer a;
    session *s = start(V_INQMP, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    char *room;
    size_t name_room = charv_room(impo, OFS_MQIMPO_ReturnedName, &room);
    frame_i64(&f, Hmsg);
    frame_bytes(&f, impo, (size_t)impo_length);
    MQLONG reason = name_item(&f, pName);
    frame_bytes(&f, pPropDesc, (size_t)pd_length);
    /* Type is input only when the caller asks for a conversion to it (IBM's MQINQMP page): otherwise its value,
     * which callers often leave unset, is not sent */
    frame_i32(&f, field_i32(impo, OFS_MQIMPO_Options) & MQIMPO_CONVERT_TYPE ? *pType : MQTYPE_AS_SET);
    frame_i32(&f, ValueLength);
    frame_i32(&f, (int32_t)name_room);
    if (ask(s, &f, &a, reason, pCompCode, pReason) < 0) return;
    uint32_t n1, n2, n3, value_length;
    const uint8_t *impo_back = read_bytes(&a.out, &n1), *returned_name = read_bytes(&a.out, &n2);
    const uint8_t *pd = read_bytes(&a.out, &n3);
    MQLONG type = read_i32(&a.out);
    const uint8_t *value = read_bytes(&a.out, &value_length);
    MQLONG full = read_i32(&a.out);
    if (!a.out.bad) {
        take_back(impo, impo_length, impo_back, n1, IMPO_KEPT);
        charv_out(impo, OFS_MQIMPO_ReturnedName, returned_name, n2);
        take_back(pPropDesc, pd_length, pd, n3, NONE_KEPT);
        *pType = type;
        if (value_length > (uint32_t)ValueLength) value_length = (uint32_t)ValueLength;
        if (value_length) memcpy(pValue, value, value_length);
        *pDataLength = full;
    }
    finish(s, &f, &a, pCompCode, pReason);
}

void MQDLTMP(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pDltPropOpts, PMQVOID pName, PMQLONG pCompCode, PMQLONG pReason) {
    int length = structure_length(pDltPropOpts, MQDMPO_STRUC_ID, DMPO_LENGTHS, 1);
    if (length < 0) { FAIL(MQRC_DMPO_ERROR); return; }
    frame f;
    answer a;
    session *s = start(V_DLTMP, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    frame_i64(&f, Hmsg);
    frame_bytes(&f, pDltPropOpts, (size_t)length);
    MQLONG reason = name_item(&f, pName);
    if (ask(s, &f, &a, reason, pCompCode, pReason) < 0) return;
    finish(s, &f, &a, pCompCode, pReason);
}

/* -- publish/subscribe and status ----------------------------------------------------------------------- */

void MQSUB(MQHCONN Hconn, PMQVOID pSubDesc, PMQHOBJ pHobj, PMQHOBJ pHsub, PMQLONG pCompCode, PMQLONG pReason) {
    uint8_t *sd = pSubDesc;
    int length = structure_length(sd, MQSD_STRUC_ID, SD_LENGTHS, 1);
    if (length < 0) { FAIL(MQRC_SD_ERROR); return; }
    if (pHobj == NULL) { FAIL(MQRC_HOBJ_ERROR); return; }
    if (pHsub == NULL) { FAIL(MQRC_HOBJ_ERROR); return; }
    static const struct { int offset; MQLONG reason; } strings[] = {
        {OFS_MQSD_ObjectString, MQRC_OBJECT_STRING_ERROR}, {OFS_MQSD_SubName, MQRC_SUB_NAME_ERROR},
        {OFS_MQSD_SelectionString, MQRC_SELECTION_STRING_ERROR}, {OFS_MQSD_SubUserData, MQRC_SUB_USER_DATA_ERROR}};
    const void *data[4];
    size_t lengths[4];
    for (int i = 0; i < 4; i++)
        if (charv_in(sd, (size_t)strings[i].offset, &data[i], &lengths[i]) < 0) { FAIL(strings[i].reason); return; }
    frame f;
    answer a;
    session *s = start(V_SUB, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    char *room;
    size_t result_room = charv_room(sd, OFS_MQSD_ResObjectString, &room);
    frame_bytes(&f, sd, (size_t)length);
    frame_i32(&f, *pHobj);
    for (int i = 0; i < 4; i++) frame_bytes(&f, data[i], lengths[i]);  /* ObjectString, SubName, Selection, UserData */
    frame_i32(&f, (int32_t)result_room);
    if (ask(s, &f, &a, MQRC_NONE, pCompCode, pReason) < 0) return;
    uint32_t n, resolved_length;
    const uint8_t *returned = read_bytes(&a.out, &n);
    MQHOBJ hobj = read_i32(&a.out), hsub = read_i32(&a.out);
    const uint8_t *resolved = read_bytes(&a.out, &resolved_length);
    if (!a.out.bad) {
        take_back(sd, length, returned, n, SD_KEPT);
        charv_out(sd, OFS_MQSD_ResObjectString, resolved, resolved_length);
        *pHobj = hobj;
        *pHsub = hsub;
    }
    finish(s, &f, &a, pCompCode, pReason);
}

void MQSUBRQ(MQHCONN Hconn, MQHOBJ Hsub, MQLONG Action, PMQVOID pSubRqOpts, PMQLONG pCompCode, PMQLONG pReason) {
    int length = structure_length(pSubRqOpts, MQSRO_STRUC_ID, SRO_LENGTHS, 1);
    if (length < 0) { FAIL(MQRC_SRO_ERROR); return; }
    frame f;
    answer a;
    session *s = start(V_SUBRQ, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    frame_i32(&f, Hsub);
    frame_i32(&f, Action);
    frame_bytes(&f, pSubRqOpts, (size_t)length);
    if (ask(s, &f, &a, MQRC_NONE, pCompCode, pReason) < 0) return;
    uint32_t n;
    const uint8_t *sro = read_bytes(&a.out, &n);
    if (!a.out.bad) take_back(pSubRqOpts, length, sro, n, NONE_KEPT);
    finish(s, &f, &a, pCompCode, pReason);
}

void MQSTAT(MQHCONN Hconn, MQLONG Type, PMQVOID pStatus, PMQLONG pCompCode, PMQLONG pReason) {
    uint8_t *sts = pStatus;
    int length = structure_length(sts, MQSTS_STRUC_ID, STS_LENGTHS, COUNT(STS_LENGTHS));
    if (length < 0) { FAIL(MQRC_STS_ERROR); return; }
    frame f;
    answer a;
    session *s = start(V_STAT, Hconn, &f, pCompCode, pReason);
    if (s == NULL) return;
    frame_i32(&f, Type);
    frame_bytes(&f, sts, (size_t)length);
    if (ask(s, &f, &a, MQRC_NONE, pCompCode, pReason) < 0) return;
    uint32_t n, object_length, name_length;
    const uint8_t *back = read_bytes(&a.out, &n), *object = read_bytes(&a.out, &object_length),
                  *name = read_bytes(&a.out, &name_length);
    if (!a.out.bad) {
        take_back(sts, length, back, n, STS_KEPT);
        if (length >= MQSTS_LENGTH_2) {
            charv_out(sts, OFS_MQSTS_ObjectString, object, object_length);
            charv_out(sts, OFS_MQSTS_SubName, name, name_length);
        }
    }
    finish(s, &f, &a, pCompCode, pReason);
}

/* -- asynchronous consumption: in this process (consume.c) -------------------------------------------- */

void MQCB(MQHCONN Hconn, MQLONG Operation, PMQVOID pCallbackDesc, MQHOBJ Hobj, PMQVOID pMsgDesc,
          PMQVOID pGetMsgOpts, PMQLONG pCompCode, PMQLONG pReason) {
    MQLONG comp = MQCC_FAILED, reason = MQRC_HCONN_ERROR;
    session *s = session_acquire(Hconn);
    if (s != NULL) {
        consume_cb(s, Operation, pCallbackDesc, Hobj, pMsgDesc, pGetMsgOpts, &comp, &reason);
        session_release(s);
    }
    SET(comp, reason);
}

void MQCTL(MQHCONN Hconn, MQLONG Operation, PMQVOID pControlOpts, PMQLONG pCompCode, PMQLONG pReason) {
    MQLONG comp = MQCC_FAILED, reason = MQRC_HCONN_ERROR;
    session *s = session_acquire(Hconn);
    if (s != NULL) {
        consume_ctl(s, Operation, pControlOpts, &comp, &reason);
        session_release(s);
    }
    SET(comp, reason);
}
