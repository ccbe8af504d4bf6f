/* A C application written as for a real queue manager, compiled against the cmqc.h IBM ships (tests/test_libmqm.py
 * builds it against IBM's header from the npm package ibmmq and links it with the emulator's libmqm): it connects
 * to the connection name given (argv[1]) as user app, puts three messages with a property, gets the one a message
 * selector chooses, and subscribes to a topic and gets what is published there. Each step prints one line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmqc.h>
#include <cmqxc.h>

static int check(const char *what, MQLONG cc, MQLONG rc) {
    if (cc != MQCC_OK) {
        printf("%s failed: %d %d\n", what, (int)cc, (int)rc);
        exit(1);
    }
    return 0;
}

static void put_with_colour(MQHCONN hc, MQHOBJ queue, const char *colour, const char *body) {
    MQLONG cc, rc;
    MQCMHO cmho = {MQCMHO_DEFAULT};
    MQHMSG handle = MQHM_NONE;
    MQCRTMH(hc, &cmho, &handle, &cc, &rc);
    check("MQCRTMH", cc, rc);
    MQSMPO smpo = {MQSMPO_DEFAULT};
    MQPD pd = {MQPD_DEFAULT};
    MQCHARV name = {MQCHARV_DEFAULT};
    name.VSPtr = "colour";
    name.VSLength = MQVS_NULL_TERMINATED;
    MQSETMP(hc, handle, &smpo, &name, &pd, MQTYPE_STRING, MQVL_NULL_TERMINATED, (PMQVOID)colour, &cc, &rc);
    check("MQSETMP", cc, rc);
    MQMD md = {MQMD_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    pmo.Version = MQPMO_VERSION_3;
    pmo.OriginalMsgHandle = handle;
    pmo.Options = MQPMO_NO_SYNCPOINT;
    memcpy(md.Format, MQFMT_STRING, MQ_FORMAT_LENGTH);
    MQPUT(hc, queue, &md, &pmo, (MQLONG)strlen(body), (PMQVOID)body, &cc, &rc);
    check("MQPUT", cc, rc);
    MQDMHO dmho = {MQDMHO_DEFAULT};
    MQDLTMH(hc, &handle, &dmho, &cc, &rc);
    check("MQDLTMH", cc, rc);
}

static void get_one(MQHCONN hc, MQHOBJ hobj, const char *label) {
    MQLONG cc, rc, length = 0;
    MQMD md = {MQMD_DEFAULT};
    MQGMO gmo = {MQGMO_DEFAULT};
    char buffer[256];
    gmo.Options = MQGMO_WAIT | MQGMO_NO_SYNCPOINT | MQGMO_NO_PROPERTIES;
    gmo.WaitInterval = 5000;
    MQGET(hc, hobj, &md, &gmo, sizeof buffer, buffer, &length, &cc, &rc);
    check(label, cc, rc);
    printf("%s: %.*s\n", label, (int)length, buffer);
}

int main(int argc, char **argv) {
    MQHCONN hc;
    MQLONG cc, rc;
    MQCNO cno = {MQCNO_DEFAULT};
    MQCD cd = {MQCD_CLIENT_CONN_DEFAULT};
    MQCSP csp = {MQCSP_DEFAULT};
    strncpy(cd.ConnectionName, argc > 1 ? argv[1] : "localhost(1414)", MQ_CONN_NAME_LENGTH);
    strncpy(cd.ChannelName, "DEV.APP.SVRCONN", MQ_CHANNEL_NAME_LENGTH);
    csp.AuthenticationType = MQCSP_AUTH_USER_ID_AND_PWD;
    csp.CSPUserIdPtr = "app";
    csp.CSPUserIdLength = 3;
    csp.CSPPasswordPtr = "password";
    csp.CSPPasswordLength = 8;
    cno.Version = MQCNO_VERSION_5;
    cno.Options = MQCNO_CLIENT_BINDING;
    cno.ClientConnPtr = &cd;
    cno.SecurityParmsPtr = &csp;
    MQCONNX("QM1", &cno, &hc, &cc, &rc);
    check("MQCONNX", cc, rc);
    printf("connected\n");

    MQOD od = {MQOD_DEFAULT};
    MQHOBJ queue;
    strncpy(od.ObjectName, "DEV.QUEUE.1", MQ_Q_NAME_LENGTH);
    MQOPEN(hc, &od, MQOO_OUTPUT | MQOO_FAIL_IF_QUIESCING, &queue, &cc, &rc);
    check("MQOPEN", cc, rc);
    put_with_colour(hc, queue, "red", "first red");
    put_with_colour(hc, queue, "blue", "the blue one");
    put_with_colour(hc, queue, "red", "second red");
    printf("put 3\n");

    MQOD selecting = {MQOD_DEFAULT};
    MQHOBJ chosen;
    char selector[] = "colour = 'blue'";
    selecting.Version = MQOD_VERSION_4;
    strncpy(selecting.ObjectName, "DEV.QUEUE.1", MQ_Q_NAME_LENGTH);
    selecting.SelectionString.VSPtr = selector;
    selecting.SelectionString.VSLength = (MQLONG)strlen(selector);
    MQOPEN(hc, &selecting, MQOO_INPUT_AS_Q_DEF, &chosen, &cc, &rc);
    check("MQOPEN selector", cc, rc);
    get_one(hc, chosen, "selected");
    MQCLOSE(hc, &chosen, MQCO_NONE, &cc, &rc);

    MQSD sd = {MQSD_DEFAULT};
    MQHOBJ managed = MQHO_NONE, hsub = MQHO_NONE;
    char topic[] = "libmqm/test/news";
    sd.Options = MQSO_CREATE | MQSO_NON_DURABLE | MQSO_MANAGED | MQSO_FAIL_IF_QUIESCING;
    sd.ObjectString.VSPtr = topic;
    sd.ObjectString.VSLength = MQVS_NULL_TERMINATED;
    MQSUB(hc, &sd, &managed, &hsub, &cc, &rc);
    check("MQSUB", cc, rc);
    MQOD tod = {MQOD_DEFAULT};
    MQHOBJ publisher;
    tod.Version = MQOD_VERSION_4;
    tod.ObjectType = MQOT_TOPIC;
    tod.ObjectString.VSPtr = topic;
    tod.ObjectString.VSLength = MQVS_NULL_TERMINATED;
    MQOPEN(hc, &tod, MQOO_OUTPUT, &publisher, &cc, &rc);
    check("MQOPEN topic", cc, rc);
    MQMD md = {MQMD_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    memcpy(md.Format, MQFMT_STRING, MQ_FORMAT_LENGTH);
    MQPUT(hc, publisher, &md, &pmo, 9, "headlines", &cc, &rc);
    check("MQPUT topic", cc, rc);
    get_one(hc, managed, "published");
    MQCLOSE(hc, &hsub, MQCO_REMOVE_SUB, &cc, &rc);
    check("MQCLOSE sub", cc, rc);
    MQDISC(&hc, &cc, &rc);
    check("MQDISC", cc, rc);
    printf("disconnected\n");
    return 0;
}
