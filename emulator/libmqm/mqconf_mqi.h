/* The MQI as libmqm needs it: IBM's C types and function signatures, the constants it uses, and where each field
 * it reads lies in IBM's 64-bit layout of each structure (x86-64 Linux), per structure version.
 *
 * Written from IBM's documented layouts ("MQI data types", "Structure data types" and each structure's page in
 * IBM MQ's documentation); the values are facts of IBM's C ABI. tests/test_libmqm.py compiles every #define below
 * against the cmqc.h IBM ships and fails on any difference (OFS_<structure>_<field> against offsetof, <name>_LENGTH_n
 * and every MQ constant against IBM's value). Structures are handled as bytes: the library reads the fields it
 * needs at these offsets and sends the rest as the caller's memory holds it. */
#ifndef MQCONF_MQI_H
#define MQCONF_MQI_H

#include <stdint.h>

typedef int32_t MQLONG;
typedef MQLONG *PMQLONG;
typedef int64_t MQINT64;
typedef MQLONG MQHCONN;
typedef MQHCONN *PMQHCONN;
typedef MQLONG MQHOBJ;
typedef MQHOBJ *PMQHOBJ;
typedef MQINT64 MQHMSG;
typedef MQHMSG *PMQHMSG;
typedef char MQCHAR;
typedef MQCHAR *PMQCHAR;
typedef void *PMQVOID;

/* completion codes and reasons */
#define MQCC_OK 0
#define MQCC_WARNING 1
#define MQCC_FAILED 2
#define MQRC_NONE 0
#define MQRC_ALREADY_CONNECTED 2002
#define MQRC_BUFFER_ERROR 2004
#define MQRC_BUFFER_LENGTH_ERROR 2005
#define MQRC_CHAR_ATTR_LENGTH_ERROR 2006
#define MQRC_CHAR_ATTRS_ERROR 2007
#define MQRC_CONNECTION_BROKEN 2009
#define MQRC_DATA_LENGTH_ERROR 2010
#define MQRC_ENVIRONMENT_ERROR 2012
#define MQRC_HCONN_ERROR 2018
#define MQRC_HOBJ_ERROR 2019
#define MQRC_INT_ATTR_COUNT_ERROR 2021
#define MQRC_INT_ATTRS_ARRAY_ERROR 2023
#define MQRC_MD_ERROR 2026
#define MQRC_NO_MSG_AVAILABLE 2033
#define MQRC_NOT_AUTHORIZED 2035
#define MQRC_OD_ERROR 2044
#define MQRC_OPTIONS_ERROR 2046
#define MQRC_Q_MGR_NAME_ERROR 2058
#define MQRC_Q_MGR_NOT_AVAILABLE 2059
#define MQRC_SELECTOR_COUNT_ERROR 2065
#define MQRC_SELECTOR_ERROR 2067
#define MQRC_STORAGE_NOT_AVAILABLE 2071
#define MQRC_TRUNCATED_MSG_FAILED 2080
#define MQRC_RESOURCE_PROBLEM 2102
#define MQRC_BO_ERROR 2134
#define MQRC_CNO_ERROR 2139
#define MQRC_PMO_ERROR 2173
#define MQRC_GMO_ERROR 2186
#define MQRC_UNEXPECTED_ERROR 2195
#define MQRC_CALL_IN_PROGRESS 2219
#define MQRC_CD_ERROR 2277
#define MQRC_CLIENT_CONN_ERROR 2278
#define MQRC_SSL_INITIALIZATION_ERROR 2393
#define MQRC_SD_ERROR 2424
#define MQRC_STS_ERROR 2426
#define MQRC_SRO_ERROR 2438
#define MQRC_PROPERTY_NAME_ERROR 2442
#define MQRC_SUB_USER_DATA_ERROR 2431
#define MQRC_SUB_NAME_ERROR 2440
#define MQRC_OBJECT_STRING_ERROR 2441
#define MQRC_CBD_ERROR 2444
#define MQRC_CTLO_ERROR 2445
#define MQRC_NO_CALLBACKS_ACTIVE 2446
#define MQRC_CALLBACK_NOT_REGISTERED 2448
#define MQRC_HMSG_ERROR 2460
#define MQRC_CMHO_ERROR 2461
#define MQRC_DMHO_ERROR 2462
#define MQRC_SMPO_ERROR 2463
#define MQRC_IMPO_ERROR 2464
#define MQRC_PROPERTY_TYPE_ERROR 2473
#define MQRC_DMPO_ERROR 2481
#define MQRC_PD_ERROR 2482
#define MQRC_CALLBACK_TYPE_ERROR 2483
#define MQRC_CALLBACK_LINK_ERROR 2487
#define MQRC_OPERATION_ERROR 2488
#define MQRC_MODULE_NOT_FOUND 2495
#define MQRC_MODULE_ENTRY_NOT_FOUND 2497
#define MQRC_HCONN_ASYNC_ACTIVE 2500
#define MQRC_PROPERTY_NAME_LENGTH_ERR 2513
#define MQRC_SELECTION_STRING_ERROR 2519
#define MQRC_RES_OBJECT_STRING_ERROR 2520
#define MQRC_OPERATION_NOT_ALLOWED 2534
#define MQRC_CHANNEL_NOT_AVAILABLE 2537
#define MQRC_HOST_NOT_AVAILABLE 2538
#define MQRC_CHANNEL_CONFIG_ERROR 2539
#define MQRC_CSP_ERROR 2595
#define MQRC_CCDT_URL_ERROR 2600

/* handles and special values */
#define MQHC_DEF_HCONN 0
#define MQHC_UNUSABLE_HCONN (-1)
#define MQHC_UNASSOCIATED_HCONN (-3)
#define MQHO_NONE 0
#define MQHO_UNUSABLE_HOBJ (-1)
#define MQVS_NULL_TERMINATED (-1)
#define MQVL_NULL_TERMINATED (-1)
#define MQTYPE_AS_SET 0
#define MQTYPE_STRING 1024
#define MQIMPO_CONVERT_TYPE 2
#define MQXPT_TCP 2
#define MQCSP_AUTH_NONE 0
#define MQCSP_AUTH_USER_ID_AND_PWD 1

/* asynchronous consumption (MQCB, MQCTL, MQCBC) */
#define MQOP_START 1
#define MQOP_START_WAIT 2
#define MQOP_STOP 4
#define MQOP_REGISTER 256
#define MQOP_DEREGISTER 512
#define MQOP_SUSPEND 65536
#define MQOP_RESUME 131072
#define MQCBT_MESSAGE_CONSUMER 1
#define MQCBT_EVENT_HANDLER 2
#define MQCBDO_START_CALL 1
#define MQCBDO_STOP_CALL 4
#define MQCBDO_REGISTER_CALL 256
#define MQCBDO_DEREGISTER_CALL 512
#define MQCBCT_START_CALL 1
#define MQCBCT_STOP_CALL 2
#define MQCBCT_REGISTER_CALL 3
#define MQCBCT_DEREGISTER_CALL 4
#define MQCBCT_EVENT_CALL 5
#define MQCBCT_MSG_REMOVED 6
#define MQCBCT_MSG_NOT_REMOVED 7
#define MQCS_NONE 0
#define MQCS_SUSPENDED 3
#define MQCS_STOPPED 4
#define MQCBD_FULL_MSG_LENGTH (-1)
#define MQCBC_CURRENT_VERSION 2
#define MQGMO_WAIT 1
#define MQGMO_BROWSE_FIRST 16
#define MQGMO_BROWSE_NEXT 32
#define MQGMO_BROWSE_MSG_UNDER_CURSOR 2048
#define MQWI_UNLIMITED (-1)
#define MQMT_DATAGRAM 8
#define MQENC_NATIVE 546
#define MQPRI_PRIORITY_AS_Q_DEF (-1)
#define MQPER_PERSISTENCE_AS_Q_DEF 2
#define MQEI_UNLIMITED (-1)

/* Each structure's StrucId (MQSTS's is "STAT") */
#define MQBO_STRUC_ID "BO  "
#define MQCBC_STRUC_ID "CBC "
#define MQCBD_STRUC_ID "CBD "
#define MQCMHO_STRUC_ID "CMHO"
#define MQCTLO_STRUC_ID "CTLO"
#define MQCSP_STRUC_ID "CSP "
#define MQCNO_STRUC_ID "CNO "
#define MQDMHO_STRUC_ID "DMHO"
#define MQDMPO_STRUC_ID "DMPO"
#define MQGMO_STRUC_ID "GMO "
#define MQIMPO_STRUC_ID "IMPO"
#define MQMD_STRUC_ID "MD  "
#define MQOD_STRUC_ID "OD  "
#define MQPD_STRUC_ID "PD  "
#define MQPMO_STRUC_ID "PMO "
#define MQSD_STRUC_ID "SD  "
#define MQSMPO_STRUC_ID "SMPO"
#define MQSRO_STRUC_ID "SRO "
#define MQSTS_STRUC_ID "STAT"

/* Structure lengths by version (64-bit) */
#define MQOD_LENGTH_1 168
#define MQOD_LENGTH_2 208
#define MQOD_LENGTH_3 344
#define MQOD_LENGTH_4 424
#define MQMD_LENGTH_1 324
#define MQMD_LENGTH_2 364
#define MQPMO_LENGTH_1 128
#define MQPMO_LENGTH_2 160
#define MQPMO_LENGTH_3 184
#define MQGMO_LENGTH_1 72
#define MQGMO_LENGTH_2 80
#define MQGMO_LENGTH_3 100
#define MQGMO_LENGTH_4 112
#define MQSD_LENGTH_1 344
#define MQSRO_LENGTH_1 16
#define MQSTS_LENGTH_1 224
#define MQSTS_LENGTH_2 280
#define MQCMHO_LENGTH_1 12
#define MQDMHO_LENGTH_1 12
#define MQSMPO_LENGTH_1 20
#define MQIMPO_LENGTH_1 64
#define MQDMPO_LENGTH_1 12
#define MQPD_LENGTH_1 24
#define MQCBD_LENGTH_1 168
#define MQCBC_LENGTH_1 56
#define MQCBC_LENGTH_2 64
#define MQCTLO_LENGTH_1 24
#define MQBO_LENGTH_1 12
#define MQCNO_LENGTH_1 12
#define MQCNO_LENGTH_2 24
#define MQCNO_LENGTH_3 152
#define MQCNO_LENGTH_4 168
#define MQCNO_LENGTH_5 200
#define MQCNO_LENGTH_6 224
#define MQCNO_LENGTH_7 256
#define MQCNO_LENGTH_8 272
#define MQCSP_LENGTH_1 56
#define MQCSP_LENGTH_2 80
#define MQCSP_LENGTH_3 104
#define MQCD_LENGTH_1 984
#define MQCD_LENGTH_2 1312
#define MQCD_LENGTH_3 1480
#define MQCD_LENGTH_4 1568
#define MQCD_LENGTH_5 1584
#define MQCD_LENGTH_6 1688
#define MQCD_LENGTH_7 1792
#define MQCD_LENGTH_8 1888
#define MQCD_LENGTH_9 1912
#define MQCD_LENGTH_10 1920
#define MQCD_LENGTH_11 1984
#define MQCD_LENGTH_12 1992
#define MQCD_LENGTH_13 2000

/* Field offsets: every structure starts with StrucId (4 characters) and Version (MQLONG at 4), but MQCD (its
 * ChannelName at 0, Version at 20). MQCHARV: a pointer, then offset, buffer size, length and CCSID. */
#define OFS_MQCHARV_VSPtr 0
#define OFS_MQCHARV_VSOffset 8
#define OFS_MQCHARV_VSBufSize 12
#define OFS_MQCHARV_VSLength 16
#define OFS_MQCHARV_VSCCSID 20
#define OFS_MQOD_RecsPresent 168
#define OFS_MQOD_ObjectRecPtr 192
#define OFS_MQOD_ResponseRecPtr 200
#define OFS_MQOD_ObjectString 344
#define OFS_MQOD_SelectionString 368
#define OFS_MQOD_ResObjectString 392
#define OFS_MQSD_ObjectString 120
#define OFS_MQSD_SubName 144
#define OFS_MQSD_SubUserData 168
#define OFS_MQSD_SelectionString 288
#define OFS_MQSD_ResObjectString 320
#define OFS_MQPMO_PutMsgRecPtr 144
#define OFS_MQPMO_ResponseRecPtr 152
#define OFS_MQMD_MsgType 12
#define OFS_MQMD_Expiry 16
#define OFS_MQMD_Encoding 24
#define OFS_MQMD_Format 32
#define OFS_MQMD_Priority 40
#define OFS_MQMD_Persistence 44
#define OFS_MQGMO_Options 8
#define OFS_MQGMO_WaitInterval 12
#define OFS_MQGMO_ResolvedQName 24
#define OFS_MQCNO_ClientConnOffset 12
#define OFS_MQCNO_ClientConnPtr 16
#define OFS_MQCNO_SSLConfigPtr 152
#define OFS_MQCNO_SSLConfigOffset 160
#define OFS_MQCNO_SecurityParmsOffset 188
#define OFS_MQCNO_SecurityParmsPtr 192
#define OFS_MQCNO_CCDTUrlPtr 200
#define OFS_MQCNO_CCDTUrlOffset 208
#define OFS_MQCNO_CCDTUrlLength 212
#define OFS_MQCNO_ApplName 224
#define OFS_MQCNO_BalanceParmsPtr 256
#define OFS_MQCSP_AuthenticationType 8
#define OFS_MQCSP_CSPUserIdPtr 16
#define OFS_MQCSP_CSPUserIdOffset 24
#define OFS_MQCSP_CSPUserIdLength 28
#define OFS_MQCSP_CSPPasswordPtr 40
#define OFS_MQCSP_CSPPasswordOffset 48
#define OFS_MQCSP_CSPPasswordLength 52
#define OFS_MQCD_Version 20
#define OFS_MQCD_TransportType 28
#define OFS_MQCD_ShortConnectionName 192
#define OFS_MQCD_ConnectionName 1024
#define OFS_MQCD_SSLCipherSpec 1688
#define OFS_MQIMPO_Options 8
#define OFS_MQIMPO_ReturnedName 32
#define OFS_MQSTS_ObjectString 224
#define OFS_MQSTS_SubName 248
#define OFS_MQCBD_CallbackType 8
#define OFS_MQCBD_Options 12
#define OFS_MQCBD_CallbackArea 16
#define OFS_MQCBD_CallbackFunction 24
#define OFS_MQCBD_CallbackName 32
#define OFS_MQCBD_MaxMsgLength 160
#define OFS_MQCBC_CallType 8
#define OFS_MQCBC_Hobj 12
#define OFS_MQCBC_CallbackArea 16
#define OFS_MQCBC_ConnectionArea 24
#define OFS_MQCBC_CompCode 32
#define OFS_MQCBC_Reason 36
#define OFS_MQCBC_State 40
#define OFS_MQCBC_DataLength 44
#define OFS_MQCBC_BufferLength 48
#define OFS_MQCBC_Flags 52
#define OFS_MQCTLO_ConnectionArea 16

/* character field lengths */
#define MQ_Q_MGR_NAME_LENGTH 48
#define MQ_CHANNEL_NAME_LENGTH 20
#define MQ_CONN_NAME_LENGTH 264
#define MQ_SHORT_CONN_NAME_LENGTH 20
#define MQ_SSL_CIPHER_SPEC_LENGTH 32
#define MQ_APPL_NAME_LENGTH 28
#define CBD_CALLBACK_NAME_LENGTH 128

/* The callback an MQCBD names: IBM's MQ_CALLBACK signature. */
typedef void MQCALLBACK_FN(MQHCONN Hconn, PMQVOID pMsgDesc, PMQVOID pGetMsgOpts, PMQVOID pBuffer, PMQVOID pContext);

/* The 23 MQI calls, with IBM's C signatures (structures as PMQVOID: the library reads them as bytes); the only
 * symbols the library exports (it is built with hidden visibility). */
#pragma GCC visibility push(default)
void MQCONN(PMQCHAR pQMgrName, PMQHCONN pHconn, PMQLONG pCompCode, PMQLONG pReason);
void MQCONNX(PMQCHAR pQMgrName, PMQVOID pConnectOpts, PMQHCONN pHconn, PMQLONG pCompCode, PMQLONG pReason);
void MQDISC(PMQHCONN pHconn, PMQLONG pCompCode, PMQLONG pReason);
void MQOPEN(MQHCONN Hconn, PMQVOID pObjDesc, MQLONG Options, PMQHOBJ pHobj, PMQLONG pCompCode, PMQLONG pReason);
void MQCLOSE(MQHCONN Hconn, PMQHOBJ pHobj, MQLONG Options, PMQLONG pCompCode, PMQLONG pReason);
void MQPUT(MQHCONN Hconn, MQHOBJ Hobj, PMQVOID pMsgDesc, PMQVOID pPutMsgOpts, MQLONG BufferLength,
           PMQVOID pBuffer, PMQLONG pCompCode, PMQLONG pReason);
void MQPUT1(MQHCONN Hconn, PMQVOID pObjDesc, PMQVOID pMsgDesc, PMQVOID pPutMsgOpts, MQLONG BufferLength,
            PMQVOID pBuffer, PMQLONG pCompCode, PMQLONG pReason);
void MQGET(MQHCONN Hconn, MQHOBJ Hobj, PMQVOID pMsgDesc, PMQVOID pGetMsgOpts, MQLONG BufferLength,
           PMQVOID pBuffer, PMQLONG pDataLength, PMQLONG pCompCode, PMQLONG pReason);
void MQINQ(MQHCONN Hconn, MQHOBJ Hobj, MQLONG SelectorCount, PMQLONG pSelectors, MQLONG IntAttrCount,
           PMQLONG pIntAttrs, MQLONG CharAttrLength, PMQCHAR pCharAttrs, PMQLONG pCompCode, PMQLONG pReason);
void MQSET(MQHCONN Hconn, MQHOBJ Hobj, MQLONG SelectorCount, PMQLONG pSelectors, MQLONG IntAttrCount,
           PMQLONG pIntAttrs, MQLONG CharAttrLength, PMQCHAR pCharAttrs, PMQLONG pCompCode, PMQLONG pReason);
void MQBEGIN(MQHCONN Hconn, PMQVOID pBeginOptions, PMQLONG pCompCode, PMQLONG pReason);
void MQCMIT(MQHCONN Hconn, PMQLONG pCompCode, PMQLONG pReason);
void MQBACK(MQHCONN Hconn, PMQLONG pCompCode, PMQLONG pReason);
void MQCRTMH(MQHCONN Hconn, PMQVOID pCrtMsgHOpts, PMQHMSG pHmsg, PMQLONG pCompCode, PMQLONG pReason);
void MQDLTMH(MQHCONN Hconn, PMQHMSG pHmsg, PMQVOID pDltMsgHOpts, PMQLONG pCompCode, PMQLONG pReason);
void MQSETMP(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pSetPropOpts, PMQVOID pName, PMQVOID pPropDesc, MQLONG Type,
             MQLONG ValueLength, PMQVOID pValue, PMQLONG pCompCode, PMQLONG pReason);
void MQINQMP(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pInqPropOpts, PMQVOID pName, PMQVOID pPropDesc, PMQLONG pType,
             MQLONG ValueLength, PMQVOID pValue, PMQLONG pDataLength, PMQLONG pCompCode, PMQLONG pReason);
void MQDLTMP(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pDltPropOpts, PMQVOID pName, PMQLONG pCompCode, PMQLONG pReason);
void MQSUB(MQHCONN Hconn, PMQVOID pSubDesc, PMQHOBJ pHobj, PMQHOBJ pHsub, PMQLONG pCompCode, PMQLONG pReason);
void MQSUBRQ(MQHCONN Hconn, MQHOBJ Hsub, MQLONG Action, PMQVOID pSubRqOpts, PMQLONG pCompCode, PMQLONG pReason);
void MQCB(MQHCONN Hconn, MQLONG Operation, PMQVOID pCallbackDesc, MQHOBJ Hobj, PMQVOID pMsgDesc,
          PMQVOID pGetMsgOpts, PMQLONG pCompCode, PMQLONG pReason);
void MQCTL(MQHCONN Hconn, MQLONG Operation, PMQVOID pControlOpts, PMQLONG pCompCode, PMQLONG pReason);
void MQSTAT(MQHCONN Hconn, MQLONG Type, PMQVOID pStatus, PMQLONG pCompCode, PMQLONG pReason);
#pragma GCC visibility pop

#endif
