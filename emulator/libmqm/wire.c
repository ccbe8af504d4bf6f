/* The session protocol's frames on a socket: a u32 length of what follows, u16 verb, u16 flags, u32 tag, then
 * items (i32, i64, bytes = u32 length and the bytes), all little-endian (docs/emulator.md, "The session
 * protocol"). Nothing read from the listener is ever used as an address or trusted as a length before it is
 * checked against what was received. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "libmqm.h"

#define CONNECT_TIMEOUT_MS 10000
#define HELLO_TIMEOUT_MS 30000

static void put_u32(uint8_t *at, uint32_t value) {
    at[0] = (uint8_t)value; at[1] = (uint8_t)(value >> 8); at[2] = (uint8_t)(value >> 16); at[3] = (uint8_t)(value >> 24);
}

static uint32_t get_u32(const uint8_t *at) {
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

static void reserve(frame *f, size_t more) {
    if (f->failed || f->len + more <= f->cap) return;
    size_t cap = f->cap * 2 > f->len + more ? f->cap * 2 : f->len + more + 4096;
    uint8_t *grown = f->data == f->small ? malloc(cap) : realloc(f->data, cap);
    if (grown == NULL) { f->failed = 1; return; }
    if (f->data == f->small) memcpy(grown, f->small, f->len);
    f->data = grown;
    f->cap = cap;
}

void frame_start(frame *f, int verb) {
    f->data = f->small;
    f->cap = sizeof f->small;
    f->failed = 0;
    memset(f->data, 0, HEADER_BYTES);
    f->data[4] = (uint8_t)verb;
    f->data[5] = (uint8_t)(verb >> 8);
    f->len = HEADER_BYTES;
}

void frame_i32(frame *f, int32_t value) {
    reserve(f, 4);
    if (f->failed) return;
    put_u32(f->data + f->len, (uint32_t)value);
    f->len += 4;
}

void frame_i64(frame *f, int64_t value) {
    frame_i32(f, (int32_t)(uint32_t)((uint64_t)value & 0xffffffffu));
    frame_i32(f, (int32_t)(uint32_t)((uint64_t)value >> 32));
}

void frame_bytes(frame *f, const void *data, size_t length) {
    reserve(f, 4 + length);
    if (f->failed) return;
    put_u32(f->data + f->len, (uint32_t)length);
    if (length) memcpy(f->data + f->len + 4, data, length);
    f->len += 4 + length;
}

void frame_free(frame *f) {
    if (f->data != f->small) free(f->data);
    f->data = f->small;
}

int32_t read_i32(reader *r) {
    if (r->bad || r->left < 4) { r->bad = 1; return 0; }
    int32_t value = (int32_t)get_u32(r->at);
    r->at += 4;
    r->left -= 4;
    return value;
}

int64_t read_i64(reader *r) {
    uint32_t low = (uint32_t)read_i32(r);
    uint32_t high = (uint32_t)read_i32(r);
    return (int64_t)((uint64_t)high << 32 | low);
}

const uint8_t *read_bytes(reader *r, uint32_t *length) {
    uint32_t n = (uint32_t)read_i32(r);
    if (r->bad || n > r->left) { r->bad = 1; *length = 0; return NULL; }
    const uint8_t *at = r->at;
    r->at += n;
    r->left -= n;
    *length = n;
    return at;
}

static int send_all(int fd, const uint8_t *data, size_t length) {
    while (length) {
        ssize_t sent = send(fd, data, length, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return -1;
        data += sent;
        length -= (size_t)sent;
    }
    return 0;
}

static int receive_all(int fd, uint8_t *data, size_t length) {
    while (length) {
        ssize_t got = recv(fd, data, length, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        data += got;
        length -= (size_t)got;
    }
    return 0;
}

int wire_send(int fd, frame *f, uint32_t tag) {
    if (f->failed) return -1;
    put_u32(f->data, (uint32_t)(f->len - 4));
    put_u32(f->data + 8, tag);
    return send_all(fd, f->data, f->len);
}

/* One frame into *buffer (grown as needed): 0 and its length (header included), or -1 when the socket failed or
 * the frame is larger than any reply may be. */
int wire_receive(int fd, uint8_t **buffer, size_t *capacity, uint32_t *length) {
    uint8_t head[4];
    if (receive_all(fd, head, 4) < 0) return -1;
    uint32_t rest = get_u32(head);
    if (rest < HEADER_BYTES - 4 || rest > MAX_REPLY_BYTES) return -1;
    if (*capacity < (size_t)rest + 4) {
        size_t cap = (size_t)rest + 4 < 65536 ? 65536 : (size_t)rest + 4;
        uint8_t *grown = realloc(*buffer, cap);
        if (grown == NULL) return -1;
        *buffer = grown;
        *capacity = cap;
    }
    memcpy(*buffer, head, 4);
    if (receive_all(fd, *buffer + 4, rest) < 0) return -1;
    *length = rest + 4;
    return 0;
}

/* Send a request and read its reply (the same verb and tag): 0, or -1 when the connection is broken. */
int wire_exchange(int fd, frame *request, uint32_t tag, uint8_t **buffer, size_t *capacity, answer *reply) {
    uint32_t length;
    if (wire_send(fd, request, tag) < 0 || wire_receive(fd, buffer, capacity, &length) < 0) return -1;
    const uint8_t *at = *buffer;
    if (at[4] != request->data[4] || at[5] != request->data[5] || get_u32(at + 8) != tag) return -1;
    reply->out.at = at + HEADER_BYTES;
    reply->out.left = length - HEADER_BYTES;
    reply->out.bad = 0;
    reply->comp = read_i32(&reply->out);
    reply->reason = read_i32(&reply->out);
    return reply->out.bad ? -1 : 0;
}

/* HELLO: MQRC_NONE when the listener speaks this protocol at a version we know; MQRC_CHANNEL_NOT_AVAILABLE when
 * it closed the socket without a reply (it serves as many connections as it may), else the reason it gave or
 * MQRC_Q_MGR_NOT_AVAILABLE (something else listens there). */
MQLONG wire_hello(int fd, uint8_t **buffer, size_t *capacity) {
    frame f;
    answer reply;
    uint8_t head_peek[1];
    frame_start(&f, V_HELLO);
    frame_bytes(&f, SESSION_MAGIC, strlen(SESSION_MAGIC));
    frame_i32(&f, SESSION_VERSION);
    frame_i32(&f, SESSION_VERSION);
    struct timeval limit = {HELLO_TIMEOUT_MS / 1000, 0}, none = {0, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    uint32_t length = 0;
    int failed = wire_send(fd, &f, 0) < 0;
    if (!failed) {
        ssize_t got = recv(fd, head_peek, 1, MSG_PEEK);
        if (got == 0) { frame_free(&f); return MQRC_CHANNEL_NOT_AVAILABLE; }
        failed = got < 0 || wire_receive(fd, buffer, capacity, &length) < 0;
    }
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &none, sizeof none);
    frame_free(&f);
    if (failed || (*buffer)[4] != V_HELLO) return MQRC_Q_MGR_NOT_AVAILABLE;
    reply.out.at = *buffer + HEADER_BYTES;
    reply.out.left = length - HEADER_BYTES;
    reply.out.bad = 0;
    reply.comp = read_i32(&reply.out);
    reply.reason = read_i32(&reply.out);
    MQLONG version = read_i32(&reply.out);
    if (reply.out.bad) return MQRC_Q_MGR_NOT_AVAILABLE;
    if (reply.comp != MQCC_OK || version != SESSION_VERSION)
        return reply.reason != MQRC_NONE ? reply.reason : MQRC_Q_MGR_NOT_AVAILABLE;
    return MQRC_NONE;
}

static int connect_within(int fd, const struct sockaddr *address, socklen_t length) {
    int flags = fcntl(fd, F_GETFL, 0);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    int done = connect(fd, address, length);
    if (done < 0 && errno == EINPROGRESS) {
        struct pollfd p = {fd, POLLOUT, 0};
        int error = 0;
        socklen_t size = sizeof error;
        done = poll(&p, 1, CONNECT_TIMEOUT_MS) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 &&
               error == 0 ? 0 : -1;
    }
    fcntl(fd, F_SETFL, flags);
    return done;
}

/* A connected socket to "host(port)" (IBM's connection name; port 1414 when none is given) or "unix:/path" (a
 * listener on a local socket), or -1; *tcp says whether it was a network address (unreachable: the host is not
 * available) rather than a local socket (no listener: the queue manager is not available). */
int wire_connect(const char *address, int *tcp) {
    *tcp = 0;
    if (strncmp(address, "unix:", 5) == 0 || address[0] == '/') {
        const char *path = address[0] == '/' ? address : address + 5;
        struct sockaddr_un where = {.sun_family = AF_UNIX};
        if (strlen(path) >= sizeof where.sun_path) return -1;
        strcpy(where.sun_path, path);
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&where, sizeof where) == 0) return fd;
        if (fd >= 0) close(fd);
        return -1;
    }
    *tcp = 1;
    char host[300], port[16] = "1414";
    snprintf(host, sizeof host, "%s", address);
    char *open = strrchr(host, '(');
    if (open != NULL) {
        char *shut = strchr(open, ')');
        if (shut == NULL || shut - open - 1 <= 0 || shut - open - 1 >= (long)sizeof port) return -1;
        memcpy(port, open + 1, (size_t)(shut - open - 1));
        port[shut - open - 1] = 0;
        *open = 0;
    }
    for (char *end = host + strlen(host); end > host && (end[-1] == ' '); *--end = 0) {}
    const char *name = host;
    while (*name == ' ') name++;
    if (*name == 0) name = "localhost";
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *found = NULL;
    if (getaddrinfo(name, port, &hints, &found) != 0) return -1;
    int fd = -1;
    for (struct addrinfo *at = found; at != NULL && fd < 0; at = at->ai_next) {
        fd = socket(at->ai_family, at->ai_socktype | SOCK_CLOEXEC, at->ai_protocol);
        if (fd >= 0 && connect_within(fd, at->ai_addr, at->ai_addrlen) < 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(found);
    if (fd >= 0) {
        int on = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    }
    return fd;
}
