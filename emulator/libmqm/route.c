/* Where a connection goes, in the order IBM's MQI client chooses a client-connection channel ("Connecting IBM MQ
 * MQI client applications to queue managers"): the MQCD the application's MQCNO points to, the CCDT named by the
 * MQCNO's CCDTUrl, the MQSERVER variable (CHANNEL/TCP/host(port)), the CCDT named by MQCCDTURL or by MQCHLLIB and
 * MQCHLTAB; with none of them, localhost(1414) as the Python client of the emulator does. A connection name may
 * list several addresses separated by commas, tried in order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libmqm.h"

static const int CD_LENGTHS[] = {MQCD_LENGTH_1, MQCD_LENGTH_2, MQCD_LENGTH_3, MQCD_LENGTH_4, MQCD_LENGTH_5,
                                 MQCD_LENGTH_6, MQCD_LENGTH_7, MQCD_LENGTH_8, MQCD_LENGTH_9, MQCD_LENGTH_10,
                                 MQCD_LENGTH_11, MQCD_LENGTH_12, MQCD_LENGTH_13};

/* A blank-padded MQ character field as a C string, trailing blanks and NULs dropped. */
static void text_of(const char *field, size_t length, char *out, size_t size) {
    size_t n = 0;
    while (n < length && field[n] != 0) n++;
    while (n > 0 && field[n - 1] == ' ') n--;
    if (n >= size) n = size - 1;
    memcpy(out, field, n);
    out[n] = 0;
}

/* Each address of a connection-name list, as routes of one channel. */
static int add_addresses(const char *names, const char *channel, int tls, route *routes, int count) {
    char list[MQ_CONN_NAME_LENGTH * 2];
    snprintf(list, sizeof list, "%s", names);
    char *rest = list;
    for (char *one = strsep(&rest, ","); one != NULL && count < MAX_ROUTES; one = strsep(&rest, ",")) {
        while (*one == ' ') one++;
        if (*one == 0) continue;
        snprintf(routes[count].address, sizeof routes[count].address, "%s", one);
        snprintf(routes[count].channel, sizeof routes[count].channel, "%s", channel);
        routes[count].tls = tls;
        count++;
    }
    return count;
}

/* The MQCD's routes (its ConnectionName, or the short one of a version-1 MQCD); 0 when it names no address. */
static MQLONG from_cd(const uint8_t *cd, route *routes, int *count) {
    MQLONG version = field_i32(cd, OFS_MQCD_Version);
    if (version < 1 || version > (MQLONG)(sizeof CD_LENGTHS / sizeof CD_LENGTHS[0])) return MQRC_CD_ERROR;
    char channel[MQ_CHANNEL_NAME_LENGTH + 1], name[MQ_CONN_NAME_LENGTH + 1], cipher[MQ_SSL_CIPHER_SPEC_LENGTH + 1] = "";
    text_of((const char *)cd, MQ_CHANNEL_NAME_LENGTH, channel, sizeof channel);
    if (version >= 2)
        text_of((const char *)cd + OFS_MQCD_ConnectionName, MQ_CONN_NAME_LENGTH, name, sizeof name);
    else
        text_of((const char *)cd + OFS_MQCD_ShortConnectionName, MQ_SHORT_CONN_NAME_LENGTH, name, sizeof name);
    if (version >= 7)
        text_of((const char *)cd + OFS_MQCD_SSLCipherSpec, MQ_SSL_CIPHER_SPEC_LENGTH, cipher, sizeof cipher);
    *count = add_addresses(name, channel, cipher[0] != 0, routes, 0);
    return MQRC_NONE;
}

/* The MQCNO's CCDT URL ("" when it has none). */
static void cno_ccdt_url(const uint8_t *cno, char *out, size_t size) {
    out[0] = 0;
    if (cno == NULL || field_i32(cno, 4) < 6) return;
    const char *url = field_ptr(cno, OFS_MQCNO_CCDTUrlPtr);
    MQLONG offset = field_i32(cno, OFS_MQCNO_CCDTUrlOffset);
    MQLONG length = field_i32(cno, OFS_MQCNO_CCDTUrlLength);
    if (url == NULL && offset > 0) url = (const char *)cno + offset;
    if (url == NULL || length <= 0) return;
    if ((size_t)length >= size) length = (MQLONG)size - 1;
    size_t n = strnlen(url, (size_t)length);
    memcpy(out, url, n);
    out[n] = 0;
}

static const char *environment(const char *name) {
    const char *value = getenv(name);
    while (value != NULL && *value == ' ') value++;
    return value != NULL && *value ? value : NULL;
}

/* The routes for a connection to queue manager qmgr; MQRC_NONE, or the reason the connection fails. */
MQLONG find_routes(const char *qmgr, const uint8_t *cno, const uint8_t *cd, route *routes, int *count) {
    *count = 0;
    if (cd != NULL) {
        MQLONG reason = from_cd(cd, routes, count);
        if (reason != MQRC_NONE || *count) return reason;
    }
    char url[4096];
    cno_ccdt_url(cno, url, sizeof url);
    if (url[0]) return ccdt_routes(url, qmgr, routes, count);
    const char *server = environment("MQSERVER");
    if (server != NULL) {
        char channel[64], transport[16];
        const char *first = strchr(server, '/');
        const char *second = first ? strchr(first + 1, '/') : NULL;
        if (first == NULL || second == NULL || first - server > MQ_CHANNEL_NAME_LENGTH || second - first - 1 >= 16)
            return MQRC_CHANNEL_CONFIG_ERROR;
        snprintf(channel, sizeof channel, "%.*s", (int)(first - server), server);
        snprintf(transport, sizeof transport, "%.*s", (int)(second - first - 1), first + 1);
        if (strcasecmp(transport, "TCP") != 0) return MQRC_CHANNEL_CONFIG_ERROR;
        *count = add_addresses(second + 1, channel, 0, routes, 0);
        return *count ? MQRC_NONE : MQRC_CHANNEL_CONFIG_ERROR;
    }
    const char *ccdt_url = environment("MQCCDTURL");
    if (ccdt_url != NULL) return ccdt_routes(ccdt_url, qmgr, routes, count);
    const char *folder = environment("MQCHLLIB"), *table = environment("MQCHLTAB");
    if (folder != NULL || table != NULL) {
        snprintf(url, sizeof url, "%s/%s", folder ? folder : ".", table ? table : "AMQCLCHL.TAB");
        return ccdt_routes(url, qmgr, routes, count);
    }
    *count = add_addresses("localhost(1414)", "", 0, routes, 0);
    return MQRC_NONE;
}
