/* A JSON client channel definition table ("Configuring a JSON format CCDT"): its client-connection channels for
 * one queue manager, each with its connection addresses in order, as emulator/ccdt.py reads it for the Python
 * client (clause emulator.ccdt), with the same reasons: a binary CCDT, a URL that is not a local file or a file
 * that cannot be read MQRC_CCDT_URL_ERROR, a file that is not such a JSON CCDT MQRC_CHANNEL_CONFIG_ERROR, no
 * channel for the queue manager MQRC_Q_MGR_NAME_ERROR. A queue-manager name starting with '*' names a group: the
 * channel's queueManager must match the rest. A channel with a transmissionSecurity cipherSpecification asks for
 * TLS. Bounded: at most 1 MiB, nested at most 32 deep, at most 1000 channels. The JSON is read by a small parser
 * of our own (libmqm has no dependency); like IBM's examples, a comma may end a list or an object. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libmqm.h"

#define MAX_BYTES (1024 * 1024)
#define MAX_DEPTH 32
#define MAX_CHANNELS 1000

enum { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };

typedef struct node {
    int type;
    double number;
    char *text;            /* a string's value, unescaped */
    char *key;             /* a member's name in its object */
    struct node *child, *next;
} node;

typedef struct {
    const char *at, *end;
    int bad;
} parser;

static void release(node *n) {
    while (n != NULL) {
        node *next = n->next;
        release(n->child);
        free(n->text);
        free(n->key);
        free(n);
        n = next;
    }
}

static void blank(parser *p) {
    while (p->at < p->end && (*p->at == ' ' || *p->at == '\t' || *p->at == '\n' || *p->at == '\r')) p->at++;
}

static void utf8(char *out, size_t *n, unsigned code) {
    if (code < 0x80) out[(*n)++] = (char)code;
    else if (code < 0x800) { out[(*n)++] = (char)(0xc0 | code >> 6); out[(*n)++] = (char)(0x80 | (code & 0x3f)); }
    else {
        out[(*n)++] = (char)(0xe0 | code >> 12);
        out[(*n)++] = (char)(0x80 | (code >> 6 & 0x3f));
        out[(*n)++] = (char)(0x80 | (code & 0x3f));
    }
}

static char *string(parser *p) {
    if (p->at >= p->end || *p->at != '"') { p->bad = 1; return NULL; }
    p->at++;
    const char *start = p->at;
    while (p->at < p->end && *p->at != '"') p->at += *p->at == '\\' ? 2 : 1;
    if (p->at >= p->end) { p->bad = 1; return NULL; }
    char *out = malloc((size_t)(p->at - start) + 1);
    if (out == NULL) { p->bad = 1; return NULL; }
    size_t n = 0;
    for (const char *c = start; c < p->at; c++) {
        if (*c != '\\') { out[n++] = *c; continue; }
        c++;
        switch (*c) {
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            unsigned code = 0;
            for (int i = 1; i <= 4; i++) {
                char h = c + i < p->at ? c[i] : 0;
                int digit = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 :
                            h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (digit < 0) { p->bad = 1; free(out); return NULL; }
                code = code * 16 + (unsigned)digit;
            }
            c += 4;
            if (code == 0) { p->bad = 1; free(out); return NULL; }
            utf8(out, &n, code);  /* 6 characters in, at most 3 bytes out */
            break;
        }
        default: out[n++] = *c;
        }
    }
    out[n] = 0;
    p->at++;
    return out;
}

static node *value(parser *p, int depth);

/* The members of an object or the items of an array, up to its closing character. */
static node *members(parser *p, int depth, char closing, int keyed) {
    node *first = NULL, **last = &first;
    p->at++;
    for (;;) {
        blank(p);
        if (p->at < p->end && *p->at == closing) { p->at++; return first; }
        char *key = NULL;
        if (keyed) {
            key = string(p);
            blank(p);
            if (p->bad || p->at >= p->end || *p->at != ':') { free(key); p->bad = 1; return first; }
            p->at++;
        }
        node *item = value(p, depth + 1);
        if (item == NULL) { free(key); p->bad = 1; return first; }
        item->key = key;
        *last = item;
        last = &item->next;
        blank(p);
        if (p->at < p->end && *p->at == ',') p->at++;
        else if (p->at >= p->end || *p->at != closing) { p->bad = 1; return first; }
    }
}

static node *value(parser *p, int depth) {
    blank(p);
    if (p->bad || p->at >= p->end || depth > MAX_DEPTH) { p->bad = 1; return NULL; }
    node *n = calloc(1, sizeof *n);
    if (n == NULL) { p->bad = 1; return NULL; }
    char c = *p->at;
    if (c == '{' || c == '[') {
        n->type = c == '{' ? J_OBJECT : J_ARRAY;
        n->child = members(p, depth, c == '{' ? '}' : ']', c == '{');
    } else if (c == '"') {
        n->type = J_STRING;
        n->text = string(p);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        char digits[64];
        size_t len = 0;
        while (p->at < p->end && len < sizeof digits - 1 && strchr("+-0123456789.eE", *p->at)) digits[len++] = *p->at++;
        digits[len] = 0;
        char *stop;
        n->type = J_NUMBER;
        n->number = strtod(digits, &stop);
        if (*stop) p->bad = 1;
    } else {
        static const char *words[] = {"true", "false", "null"};
        int found = 0;
        for (int i = 0; i < 3 && !found; i++) {
            size_t len = strlen(words[i]);
            if ((size_t)(p->end - p->at) >= len && memcmp(p->at, words[i], len) == 0) {
                n->type = i < 2 ? J_BOOL : J_NULL;
                p->at += len;
                found = 1;
            }
        }
        if (!found) p->bad = 1;
    }
    if (p->bad) { release(n); return NULL; }
    return n;
}

static node *member(node *object, const char *key) {
    if (object == NULL || object->type != J_OBJECT) return NULL;
    for (node *n = object->child; n != NULL; n = n->next)
        if (n->key != NULL && strcmp(n->key, key) == 0) return n;
    return NULL;
}

static const char *text(node *object, const char *key) {
    node *n = member(object, key);
    return n != NULL && n->type == J_STRING ? n->text : NULL;
}

/* Whether the bytes are UTF-8 text with no NUL (a binary CCDT is not). */
static int utf8_text(const char *data, size_t length) {
    const unsigned char *at = (const unsigned char *)data, *end = at + length;
    while (at < end) {
        unsigned char c = *at++;
        int more = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
        if (c == 0 || more < 0 || end - at < more) return 0;
        for (; more > 0; more--)
            if ((*at++ & 0xc0) != 0x80) return 0;
    }
    return 1;
}

/* The bytes of a local CCDT (a path or a file:// URL); MQRC_NONE or the reason. Opened without blocking and read
 * only if a regular file, as emulator/ccdt.py reads it: a FIFO named as the CCDT must not hang the connect, nor a
 * device be read. */
static MQLONG read_table(const char *url, char **data, size_t *length) {
    const char *path = url;
    if (strncasecmp(url, "file://", 7) == 0) path = url + 7;
    else if (strncasecmp(url, "file:", 5) == 0) path = url + 5;
    else if (strstr(url, "://") != NULL) return MQRC_CCDT_URL_ERROR;  /* ftp, http: only local files are read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return MQRC_CCDT_URL_ERROR;
    struct stat about;
    char *buffer = NULL;
    size_t got = 0;
    MQLONG reason = fstat(fd, &about) == 0 && S_ISREG(about.st_mode) ? MQRC_NONE : MQRC_CCDT_URL_ERROR;
    if (reason == MQRC_NONE && (buffer = malloc(MAX_BYTES + 1)) == NULL) reason = MQRC_STORAGE_NOT_AVAILABLE;
    while (reason == MQRC_NONE && got < MAX_BYTES + 1) {
        ssize_t n = read(fd, buffer + got, MAX_BYTES + 1 - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) reason = MQRC_CCDT_URL_ERROR;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fd);
    if (reason == MQRC_NONE && got > MAX_BYTES) reason = MQRC_CHANNEL_CONFIG_ERROR;
    if (reason == MQRC_NONE && !utf8_text(buffer, got)) reason = MQRC_CCDT_URL_ERROR;  /* a binary CCDT */
    if (reason != MQRC_NONE) {
        free(buffer);
        return reason;
    }
    *data = buffer;
    *length = got;
    return MQRC_NONE;
}

static MQLONG channel_routes(node *entry, const char *wanted, route *routes, int *count) {
    const char *type = text(entry, "type");
    if (type != NULL && strcmp(type, "clientConnection") != 0) return MQRC_NONE;
    node *client = member(entry, "clientConnection");
    const char *name = text(entry, "name");
    if (client == NULL || client->type != J_OBJECT || name == NULL) return MQRC_CHANNEL_CONFIG_ERROR;
    const char *owner = text(client, "queueManager");
    if (wanted[0] && strcmp(owner ? owner : "", wanted) != 0) return MQRC_NONE;
    const char *cipher = text(member(entry, "transmissionSecurity"), "cipherSpecification");
    node *connections = member(client, "connection");
    for (node *c = connections && connections->type == J_ARRAY ? connections->child : NULL; c; c = c->next) {
        const char *host = text(c, "host");
        node *port = member(c, "port");
        double number = port == NULL ? 1414 : port->type == J_NUMBER ? port->number : -1;
        if (host == NULL || number != (int)number || number < 1 || number > 65535) return MQRC_CHANNEL_CONFIG_ERROR;
        if (*count < MAX_ROUTES && strlen(name) <= MQ_CHANNEL_NAME_LENGTH) {
            snprintf(routes[*count].address, sizeof routes[*count].address, "%s(%d)", host, (int)number);
            snprintf(routes[*count].channel, sizeof routes[*count].channel, "%s", name);
            routes[*count].tls = cipher != NULL && cipher[0] != 0;
            (*count)++;
        }
    }
    return MQRC_NONE;
}

MQLONG ccdt_routes(const char *url, const char *qmgr, route *routes, int *count) {
    char *data = NULL;
    size_t length = 0;
    *count = 0;
    MQLONG reason = read_table(url, &data, &length);
    if (reason != MQRC_NONE) return reason;
    parser p = {data, data + length, 0};
    node *table = value(&p, 0);
    blank(&p);
    if (table == NULL || p.at != p.end) reason = MQRC_CHANNEL_CONFIG_ERROR;
    node *channels = member(table, "channel");
    int listed = 0;
    for (node *n = channels ? channels->child : NULL; n; n = n->next) listed++;
    if (reason == MQRC_NONE && (channels == NULL || channels->type != J_ARRAY || listed > MAX_CHANNELS))
        reason = MQRC_CHANNEL_CONFIG_ERROR;
    const char *wanted = qmgr;
    while (*wanted == '*') wanted++;
    for (node *n = reason == MQRC_NONE ? channels->child : NULL; n && reason == MQRC_NONE; n = n->next)
        reason = n->type == J_OBJECT ? channel_routes(n, wanted, routes, count) : MQRC_NONE;
    if (reason == MQRC_NONE && *count == 0) reason = MQRC_Q_MGR_NAME_ERROR;
    release(table);
    free(data);
    return reason;
}
