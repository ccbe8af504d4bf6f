"""IBM MQ constants, by their symbolic names, with the values of IBM's C header ``cmqc.h``.

Every value in ``_CHECKED`` was checked against IBM's MQI reference (clauses.yaml document `facts`) (where each is read from two
independent copies of the header). ``_FROM_HEADER`` holds the few the model needs that the fact sheet does not
list; each was read from IBM's ``cmqc.h`` (MQ 9.4.5) directly.

The call language, scenarios and reports spell every option and code by name; this module turns names into
values and back, and knows which names are bit flags of an option field and which are enumerated values.
"""

from __future__ import annotations

from collections.abc import Iterable

_CHECKED: dict[str, int] = {
    # MQGMO
    "MQGMO_WAIT": 1,
    "MQGMO_NO_WAIT": 0,
    "MQGMO_SET_SIGNAL": 8,
    "MQGMO_FAIL_IF_QUIESCING": 8192,
    "MQGMO_SYNCPOINT": 2,
    "MQGMO_SYNCPOINT_IF_PERSISTENT": 4096,
    "MQGMO_NO_SYNCPOINT": 4,
    "MQGMO_MARK_SKIP_BACKOUT": 128,
    "MQGMO_BROWSE_FIRST": 16,
    "MQGMO_BROWSE_NEXT": 32,
    "MQGMO_BROWSE_MSG_UNDER_CURSOR": 2048,
    "MQGMO_MSG_UNDER_CURSOR": 256,
    "MQGMO_LOCK": 512,
    "MQGMO_UNLOCK": 1024,
    "MQGMO_ACCEPT_TRUNCATED_MSG": 64,
    "MQGMO_CONVERT": 16384,
    "MQGMO_LOGICAL_ORDER": 32768,
    "MQGMO_COMPLETE_MSG": 65536,
    "MQGMO_ALL_MSGS_AVAILABLE": 131072,
    "MQGMO_ALL_SEGMENTS_AVAILABLE": 262144,
    "MQGMO_MARK_BROWSE_HANDLE": 1048576,
    "MQGMO_MARK_BROWSE_CO_OP": 2097152,
    "MQGMO_UNMARK_BROWSE_CO_OP": 4194304,
    "MQGMO_UNMARK_BROWSE_HANDLE": 8388608,
    "MQGMO_UNMARKED_BROWSE_MSG": 16777216,
    "MQGMO_PROPERTIES_FORCE_MQRFH2": 33554432,
    "MQGMO_NO_PROPERTIES": 67108864,
    "MQGMO_PROPERTIES_IN_HANDLE": 134217728,
    "MQGMO_PROPERTIES_COMPATIBILITY": 268435456,
    "MQGMO_PROPERTIES_AS_Q_DEF": 0,
    "MQGMO_NONE": 0,
    "MQGMO_BROWSE_HANDLE": 17825808,
    "MQGMO_BROWSE_CO_OP": 18874384,
    "MQGMO_VERSION_1": 1,
    "MQGMO_VERSION_2": 2,
    "MQGMO_VERSION_3": 3,
    "MQGMO_VERSION_4": 4,
    "MQGMO_CURRENT_VERSION": 4,
    "MQGMO_LENGTH_1": 72,
    "MQGMO_LENGTH_2": 80,
    "MQGMO_LENGTH_3": 100,
    "MQGMO_LENGTH_4": 112,
    # MQMO
    "MQMO_MATCH_MSG_ID": 1,
    "MQMO_MATCH_CORREL_ID": 2,
    "MQMO_MATCH_GROUP_ID": 4,
    "MQMO_MATCH_MSG_SEQ_NUMBER": 8,
    "MQMO_MATCH_OFFSET": 16,
    "MQMO_MATCH_MSG_TOKEN": 32,
    "MQMO_NONE": 0,
    # MQGS
    "MQGS_NOT_IN_GROUP": 32,
    "MQGS_MSG_IN_GROUP": 71,
    "MQGS_LAST_MSG_IN_GROUP": 76,
    # MQSS
    "MQSS_NOT_A_SEGMENT": 32,
    "MQSS_SEGMENT": 83,
    "MQSS_LAST_SEGMENT": 76,
    # MQSEG
    "MQSEG_INHIBITED": 32,
    "MQSEG_ALLOWED": 65,
    # MQPMO
    "MQPMO_SYNCPOINT": 2,
    "MQPMO_NO_SYNCPOINT": 4,
    "MQPMO_DEFAULT_CONTEXT": 32,
    "MQPMO_NEW_MSG_ID": 64,
    "MQPMO_NEW_CORREL_ID": 128,
    "MQPMO_PASS_IDENTITY_CONTEXT": 256,
    "MQPMO_PASS_ALL_CONTEXT": 512,
    "MQPMO_SET_IDENTITY_CONTEXT": 1024,
    "MQPMO_SET_ALL_CONTEXT": 2048,
    "MQPMO_ALTERNATE_USER_AUTHORITY": 4096,
    "MQPMO_FAIL_IF_QUIESCING": 8192,
    "MQPMO_NO_CONTEXT": 16384,
    "MQPMO_LOGICAL_ORDER": 32768,
    "MQPMO_ASYNC_RESPONSE": 65536,
    "MQPMO_SYNC_RESPONSE": 131072,
    "MQPMO_RESOLVE_LOCAL_Q": 262144,
    "MQPMO_WARN_IF_NO_SUBS_MATCHED": 524288,
    "MQPMO_RETAIN": 2097152,
    "MQPMO_MD_FOR_OUTPUT_ONLY": 8388608,
    "MQPMO_SCOPE_QMGR": 67108864,
    "MQPMO_SUPPRESS_REPLYTO": 134217728,
    "MQPMO_NOT_OWN_SUBS": 268435456,
    "MQPMO_RESPONSE_AS_Q_DEF": 0,
    "MQPMO_NONE": 0,
    "MQPMO_VERSION_1": 1,
    "MQPMO_VERSION_2": 2,
    "MQPMO_VERSION_3": 3,
    "MQPMO_CURRENT_VERSION": 3,
    # MQPMRF
    "MQPMRF_MSG_ID": 1,
    "MQPMRF_CORREL_ID": 2,
    "MQPMRF_GROUP_ID": 4,
    "MQPMRF_FEEDBACK": 8,
    "MQPMRF_ACCOUNTING_TOKEN": 16,
    "MQPMRF_NONE": 0,
    # MQMF
    "MQMF_SEGMENTATION_INHIBITED": 0,
    "MQMF_SEGMENTATION_ALLOWED": 1,
    "MQMF_SEGMENT": 2,
    "MQMF_LAST_SEGMENT": 4,
    "MQMF_MSG_IN_GROUP": 8,
    "MQMF_LAST_MSG_IN_GROUP": 16,
    "MQMF_NONE": 0,
    "MQMF_REJECT_UNSUP_MASK": 4095,
    "MQMF_ACCEPT_UNSUP_IF_XMIT_MASK": 1044480,
    "MQMF_ACCEPT_UNSUP_MASK": 4293918720,
    # MQOO
    "MQOO_BIND_AS_Q_DEF": 0,
    "MQOO_READ_AHEAD_AS_Q_DEF": 0,
    "MQOO_INPUT_AS_Q_DEF": 1,
    "MQOO_INPUT_SHARED": 2,
    "MQOO_INPUT_EXCLUSIVE": 4,
    "MQOO_BROWSE": 8,
    "MQOO_OUTPUT": 16,
    "MQOO_INQUIRE": 32,
    "MQOO_SET": 64,
    "MQOO_SAVE_ALL_CONTEXT": 128,
    "MQOO_PASS_IDENTITY_CONTEXT": 256,
    "MQOO_PASS_ALL_CONTEXT": 512,
    "MQOO_SET_IDENTITY_CONTEXT": 1024,
    "MQOO_SET_ALL_CONTEXT": 2048,
    "MQOO_ALTERNATE_USER_AUTHORITY": 4096,
    "MQOO_FAIL_IF_QUIESCING": 8192,
    "MQOO_BIND_ON_OPEN": 16384,
    "MQOO_BIND_NOT_FIXED": 32768,
    "MQOO_RESOLVE_NAMES": 65536,
    "MQOO_CO_OP": 131072,
    "MQOO_RESOLVE_LOCAL_Q": 262144,
    "MQOO_NO_READ_AHEAD": 524288,
    "MQOO_READ_AHEAD": 1048576,
    "MQOO_NO_MULTICAST": 2097152,
    "MQOO_BIND_ON_GROUP": 4194304,
    # MQBND
    "MQBND_BIND_ON_OPEN": 0,
    "MQBND_BIND_NOT_FIXED": 1,
    "MQBND_BIND_ON_GROUP": 2,
    # MQCO
    "MQCO_NONE": 0,
    "MQCO_IMMEDIATE": 0,
    "MQCO_DELETE": 1,
    "MQCO_DELETE_PURGE": 2,
    "MQCO_KEEP_SUB": 4,
    "MQCO_REMOVE_SUB": 8,
    "MQCO_QUIESCE": 32,
    # MQPER
    "MQPER_PERSISTENCE_AS_PARENT": -1,
    "MQPER_NOT_PERSISTENT": 0,
    "MQPER_PERSISTENT": 1,
    "MQPER_PERSISTENCE_AS_Q_DEF": 2,
    "MQPER_PERSISTENCE_AS_TOPIC_DEF": 2,
    # MQPRI
    "MQPRI_PRIORITY_AS_Q_DEF": -1,
    # MQMD
    "MQMD_VERSION_1": 1,
    "MQMD_VERSION_2": 2,
    "MQMD_CURRENT_VERSION": 2,
    "MQMD_LENGTH_1": 324,
    "MQMD_LENGTH_2": 364,
    # MQMDE
    "MQMDE_LENGTH_2": 72,
    # MQCC
    "MQCC_OK": 0,
    "MQCC_WARNING": 1,
    "MQCC_FAILED": 2,
    "MQCC_UNKNOWN": -1,
    # MQCLWL_USEQ
    "MQCLWL_USEQ_LOCAL": 0,
    "MQCLWL_USEQ_ANY": 1,
    "MQCLWL_USEQ_AS_Q_MGR": -3,
    # MQQA
    "MQQA_PUT_INHIBITED": 1,
    "MQQA_PUT_ALLOWED": 0,
    "MQQA_GET_INHIBITED": 1,
    "MQQA_GET_ALLOWED": 0,
    "MQQA_SHAREABLE": 1,
    "MQQA_NOT_SHAREABLE": 0,
    # MQMMBI
    "MQMMBI_UNLIMITED": -1,
    # MQWI
    "MQWI_UNLIMITED": -1,
    # MQOL
    "MQOL_UNDEFINED": -1,
    # MQRL
    "MQRL_UNDEFINED": -1,
    # MQ
    "MQ_MSG_ID_LENGTH": 24,
    "MQ_CORREL_ID_LENGTH": 24,
    "MQ_GROUP_ID_LENGTH": 24,
    "MQ_MSG_TOKEN_LENGTH": 16,
    "MQ_ACCOUNTING_TOKEN_LENGTH": 32,
    # MQMDS
    "MQMDS_PRIORITY": 0,
    "MQMDS_FIFO": 1,
    # MQIA
    "MQIA_MSG_MARK_BROWSE_INTERVAL": 68,
    "MQIA_DEF_BIND": 61,
    "MQIA_CLWL_USEQ": 98,
    "MQIA_MAX_MSG_LENGTH": 13,
    "MQIA_INHIBIT_PUT": 10,
    "MQIA_INHIBIT_GET": 9,
    # MQRC
    "MQRC_NONE": 0,
    "MQRC_ALIAS_BASE_Q_TYPE_ERROR": 2001,
    "MQRC_BACKED_OUT": 2003,
    "MQRC_BUFFER_ERROR": 2004,
    "MQRC_BUFFER_LENGTH_ERROR": 2005,
    "MQRC_CONNECTION_BROKEN": 2009,
    "MQRC_DATA_LENGTH_ERROR": 2010,
    "MQRC_EXPIRY_ERROR": 2013,
    "MQRC_GET_INHIBITED": 2016,
    "MQRC_HCONN_ERROR": 2018,
    "MQRC_HOBJ_ERROR": 2019,
    "MQRC_SYNCPOINT_LIMIT_REACHED": 2024,
    "MQRC_MD_ERROR": 2026,
    "MQRC_MSG_TOO_BIG_FOR_Q": 2030,
    "MQRC_MSG_TOO_BIG_FOR_Q_MGR": 2031,
    "MQRC_NO_MSG_AVAILABLE": 2033,
    "MQRC_NO_MSG_UNDER_CURSOR": 2034,
    "MQRC_NOT_AUTHORIZED": 2035,
    "MQRC_NOT_OPEN_FOR_BROWSE": 2036,
    "MQRC_NOT_OPEN_FOR_INPUT": 2037,
    "MQRC_NOT_OPEN_FOR_INQUIRE": 2038,
    "MQRC_NOT_OPEN_FOR_OUTPUT": 2039,
    "MQRC_OBJECT_CHANGED": 2041,
    "MQRC_OBJECT_IN_USE": 2042,
    "MQRC_OPTIONS_ERROR": 2046,
    "MQRC_PERSISTENCE_ERROR": 2047,
    "MQRC_PERSISTENT_NOT_ALLOWED": 2048,
    "MQRC_PRIORITY_ERROR": 2050,
    "MQRC_PUT_INHIBITED": 2051,
    "MQRC_Q_DELETED": 2052,
    "MQRC_Q_FULL": 2053,
    "MQRC_Q_SPACE_NOT_AVAILABLE": 2056,
    "MQRC_Q_MGR_NAME_ERROR": 2058,
    "MQRC_Q_MGR_NOT_AVAILABLE": 2059,
    "MQRC_SECOND_MARK_NOT_ALLOWED": 2062,
    "MQRC_SYNCPOINT_NOT_AVAILABLE": 2072,
    "MQRC_TRUNCATED_MSG_ACCEPTED": 2079,
    "MQRC_TRUNCATED_MSG_FAILED": 2080,
    "MQRC_UNKNOWN_ALIAS_BASE_Q": 2082,
    "MQRC_UNKNOWN_OBJECT_NAME": 2085,
    "MQRC_UNKNOWN_OBJECT_Q_MGR": 2086,
    "MQRC_UNKNOWN_REMOTE_Q_MGR": 2087,
    "MQRC_WAIT_INTERVAL_ERROR": 2090,
    "MQRC_OBJECT_DAMAGED": 2101,
    "MQRC_RESOURCE_PROBLEM": 2102,
    "MQRC_NOT_CONVERTED": 2119,
    "MQRC_CONVERTED_MSG_TOO_BIG": 2120,
    "MQRC_UOW_IN_PROGRESS": 2128,
    "MQRC_CNO_ERROR": 2139,
    "MQRC_PMO_RECORD_FLAGS_ERROR": 2158,
    "MQRC_Q_MGR_QUIESCING": 2161,
    "MQRC_Q_MGR_STOPPING": 2162,
    "MQRC_PMO_ERROR": 2173,
    "MQRC_INCONSISTENT_PERSISTENCE": 2185,
    "MQRC_GMO_ERROR": 2186,
    "MQRC_STOPPED_BY_CLUSTER_EXIT": 2188,
    "MQRC_CLUSTER_RESOLUTION_ERROR": 2189,
    "MQRC_STORAGE_MEDIUM_FULL": 2192,
    "MQRC_MSG_MARKED_BROWSE_CO_OP": 2200,
    "MQRC_CONNECTION_QUIESCING": 2202,
    "MQRC_MSG_ID_ERROR": 2206,
    "MQRC_CORREL_ID_ERROR": 2207,
    "MQRC_NO_MSG_LOCKED": 2209,
    "MQRC_MSG_TOO_BIG_FOR_CHANNEL": 2218,
    "MQRC_INCOMPLETE_GROUP": 2241,
    "MQRC_INCOMPLETE_MSG": 2242,
    "MQRC_INCONSISTENT_CCSIDS": 2243,
    "MQRC_INCONSISTENT_ENCODINGS": 2244,
    "MQRC_INCONSISTENT_UOW": 2245,
    "MQRC_INVALID_MSG_UNDER_CURSOR": 2246,
    "MQRC_MATCH_OPTIONS_ERROR": 2247,
    "MQRC_MDE_ERROR": 2248,
    "MQRC_MSG_FLAGS_ERROR": 2249,
    "MQRC_MSG_SEQ_NUMBER_ERROR": 2250,
    "MQRC_OFFSET_ERROR": 2251,
    "MQRC_ORIGINAL_LENGTH_ERROR": 2252,
    "MQRC_SEGMENT_LENGTH_ZERO": 2253,
    "MQRC_UOW_NOT_AVAILABLE": 2255,
    "MQRC_WRONG_GMO_VERSION": 2256,
    "MQRC_WRONG_MD_VERSION": 2257,
    "MQRC_GROUP_ID_ERROR": 2258,
    "MQRC_INCONSISTENT_BROWSE": 2259,
    "MQRC_CLUSTER_EXIT_ERROR": 2266,
    "MQRC_CLUSTER_EXIT_LOAD_ERROR": 2267,
    "MQRC_CLUSTER_PUT_INHIBITED": 2268,
    "MQRC_CLUSTER_RESOURCE_ERROR": 2269,
    "MQRC_NO_DESTINATIONS_AVAILABLE": 2270,
    "MQRC_CD_ERROR": 2277,
    "MQRC_MSG_TOKEN_ERROR": 2331,
    "MQRC_SEGMENTS_NOT_SUPPORTED": 2365,
    "MQRC_Q_INDEX_TYPE_ERROR": 2394,
    "MQRC_MSG_NOT_ALLOWED_IN_GROUP": 2417,
    "MQRC_SEGMENTATION_NOT_ALLOWED": 2443,
    "MQRC_HMSG_ERROR": 2460,
    "MQRC_HOBJ_QUIESCED": 2517,
    "MQRC_HOBJ_QUIESCED_NO_MSGS": 2518,
    "MQRC_HOST_NOT_AVAILABLE": 2538,
    "MQRC_SELECTION_NOT_AVAILABLE": 2551,
}

_FROM_HEADER: dict[str, int] = {
    # Message types (MQMD.MsgType)
    "MQMT_REQUEST": 1,
    "MQMT_REPLY": 2,
    "MQMT_REPORT": 4,
    "MQMT_DATAGRAM": 8,
    # Encoding and character set initial values (MQMD.Encoding, MQMD.CodedCharSetId)
    "MQENC_NATIVE": 546,
    "MQCCSI_Q_MGR": 0,
    # Expiry (MQMD.Expiry)
    "MQEI_UNLIMITED": -1,
    # Feedback and report initial values
    "MQFB_NONE": 0,
    "MQRO_NONE": 0,
    # Integer attribute selectors for MQINQ beyond section 1.8 of the fact sheet
    "MQIA_CURRENT_Q_DEPTH": 3,
    "MQIA_DEF_PERSISTENCE": 5,
    "MQIA_DEF_PRIORITY": 6,
    "MQIA_MAX_Q_DEPTH": 15,
    "MQIA_MSG_DELIVERY_SEQUENCE": 16,
    "MQIA_OPEN_INPUT_COUNT": 17,
    "MQIA_OPEN_OUTPUT_COUNT": 18,
    # Reason codes beyond section 1.9 of the fact sheet
    "MQRC_OPTION_NOT_VALID_FOR_TYPE": 2045,
    "MQRC_PRIORITY_EXCEEDS_MAXIMUM": 2049,
    "MQRC_SELECTOR_COUNT_ERROR": 2065,
    "MQRC_SELECTOR_ERROR": 2067,
    "MQRC_NOT_OPEN_FOR_SET": 2040,
    # MQINQ of a cluster queue that resolved to an instance on another queue manager (cluster.inquire.remote-instance)
    "MQRC_SELECTOR_NOT_FOR_TYPE": 2068,
    "MQQT_CLUSTER": 7,
    "MQIAV_NOT_APPLICABLE": -1,  # IBM's header; -2 is MQIAV_UNDEFINED
    "MQRC_SELECTOR_LIMIT_EXCEEDED": 2066,
    # MQPUT and MQPUT1 with context options (reference/context.py; issue 30)
    "MQRC_NOT_OPEN_FOR_PASS_ALL": 2093,
    "MQRC_NOT_OPEN_FOR_PASS_IDENT": 2094,
    "MQRC_NOT_OPEN_FOR_SET_ALL": 2095,
    "MQRC_NOT_OPEN_FOR_SET_IDENT": 2096,
    "MQRC_CONTEXT_HANDLE_ERROR": 2097,
    "MQCA_Q_DESC": 2013,
    # Queue types, definition types, trigger values (read from cmqc.h; issue 19)
    "MQQT_LOCAL": 1,
    "MQQT_MODEL": 2,
    "MQQT_ALIAS": 3,
    "MQQDT_PREDEFINED": 1,
    "MQQDT_PERMANENT_DYNAMIC": 2,
    "MQQDT_TEMPORARY_DYNAMIC": 3,
    "MQTC_OFF": 0,
    "MQTC_ON": 1,
    "MQTT_NONE": 0,
    "MQTT_FIRST": 1,
    "MQTT_EVERY": 2,
    "MQTT_DEPTH": 3,
    # Attribute selectors of MQINQ and MQSET (issue 19)
    "MQIA_BACKOUT_THRESHOLD": 22,
    "MQIA_DEF_INPUT_OPEN_OPTION": 4,
    "MQIA_DEFINITION_TYPE": 7,
    "MQIA_Q_TYPE": 20,
    "MQIA_SHAREABILITY": 23,
    "MQIA_TRIGGER_CONTROL": 24,
    "MQIA_TRIGGER_MSG_PRIORITY": 26,
    "MQIA_TRIGGER_TYPE": 28,
    "MQIA_TRIGGER_DEPTH": 29,
    "MQCA_BASE_Q_NAME": 2002,
    "MQCA_Q_NAME": 2016,
    "MQCA_BACKOUT_REQ_Q_NAME": 2019,
    "MQCA_TRIGGER_DATA": 2023,
    # Report options (MQMD.Report): sub-fields of plain, with-data and with-full-data variants, and flags
    "MQRO_EXCEPTION": 16777216,
    "MQRO_EXCEPTION_WITH_DATA": 50331648,
    "MQRO_EXCEPTION_WITH_FULL_DATA": 117440512,
    "MQRO_EXPIRATION": 2097152,
    "MQRO_EXPIRATION_WITH_DATA": 6291456,
    "MQRO_EXPIRATION_WITH_FULL_DATA": 14680064,
    "MQRO_COA": 256,
    "MQRO_COA_WITH_DATA": 768,
    "MQRO_COA_WITH_FULL_DATA": 1792,
    "MQRO_COD": 2048,
    "MQRO_COD_WITH_DATA": 6144,
    "MQRO_COD_WITH_FULL_DATA": 14336,
    "MQRO_PAN": 1,
    "MQRO_NAN": 2,
    "MQRO_ACTIVITY": 4,
    "MQRO_NEW_MSG_ID": 0,
    "MQRO_PASS_MSG_ID": 128,
    "MQRO_COPY_MSG_ID_TO_CORREL_ID": 0,
    "MQRO_PASS_CORREL_ID": 64,
    "MQRO_DEAD_LETTER_Q": 0,
    "MQRO_DISCARD_MSG": 134217728,
    "MQRO_PASS_DISCARD_AND_EXPIRY": 16384,
    "MQRO_REJECT_UNSUP_MASK": 0x101C0000,
    # Feedback values (MQMD.Feedback)
    "MQFB_SYSTEM_FIRST": 1,
    "MQFB_QUIT": 256,
    "MQFB_EXPIRATION": 258,
    "MQFB_COA": 259,
    "MQFB_COD": 260,
    "MQFB_SYSTEM_LAST": 65535,
    "MQFB_APPL_FIRST": 65536,
    "MQFB_APPL_LAST": 999999999,
    "MQMT_SYSTEM_FIRST": 1,
    "MQMT_SYSTEM_LAST": 65535,
    "MQMT_APPL_FIRST": 65536,
    "MQMT_APPL_LAST": 999999999,
    # Reason codes of dynamic queues, MQCLOSE options, MQSET and reports (issue 19)
    "MQRC_CHAR_ATTR_LENGTH_ERROR": 2006,
    "MQRC_DYNAMIC_Q_NAME_ERROR": 2011,
    "MQRC_FEEDBACK_ERROR": 2014,
    "MQRC_INHIBIT_VALUE_ERROR": 2020,
    "MQRC_INT_ATTR_COUNT_ERROR": 2021,
    "MQRC_MISSING_REPLY_TO_Q": 2027,
    "MQRC_MSG_TYPE_ERROR": 2029,
    "MQRC_Q_NOT_EMPTY": 2055,
    "MQRC_Q_TYPE_ERROR": 2057,
    "MQRC_REPORT_OPTIONS_ERROR": 2061,
    "MQRC_TRIGGER_CONTROL_ERROR": 2075,
    "MQRC_TRIGGER_DEPTH_ERROR": 2076,
    "MQRC_TRIGGER_MSG_PRIORITY_ERR": 2077,
    "MQRC_TRIGGER_TYPE_ERROR": 2078,
    "MQRC_OBJECT_ALREADY_EXISTS": 2100,
    # Message properties and selection (issue 27): MQCRTMH/MQSETMP/MQINQMP/MQDLTMP options, property types,
    # PropertyControl values, MQPMO Action, and their reason codes (read from cmqc.h as IBM's ibmmq 2.1.2 ships it)
    "MQTYPE_AS_SET": 0,
    "MQTYPE_NULL": 2,
    "MQTYPE_BOOLEAN": 4,
    "MQTYPE_BYTE_STRING": 8,
    "MQTYPE_INT8": 16,
    "MQTYPE_INT16": 32,
    "MQTYPE_INT32": 64,
    "MQTYPE_LONG": 64,
    "MQTYPE_INT64": 128,
    "MQTYPE_FLOAT32": 256,
    "MQTYPE_FLOAT64": 512,
    "MQTYPE_STRING": 1024,
    "MQCMHO_DEFAULT_VALIDATION": 0,
    "MQCMHO_NONE": 0,
    "MQCMHO_NO_VALIDATION": 1,
    "MQCMHO_VALIDATE": 2,
    "MQDMHO_NONE": 0,
    "MQSMPO_SET_FIRST": 0,
    "MQSMPO_NONE": 0,
    "MQSMPO_SET_PROP_UNDER_CURSOR": 1,
    "MQSMPO_SET_PROP_AFTER_CURSOR": 2,
    "MQSMPO_APPEND_PROPERTY": 4,
    "MQSMPO_SET_PROP_BEFORE_CURSOR": 8,
    "MQIMPO_INQ_FIRST": 0,
    "MQIMPO_NONE": 0,
    "MQIMPO_CONVERT_TYPE": 2,
    "MQIMPO_QUERY_LENGTH": 4,
    "MQIMPO_INQ_NEXT": 8,
    "MQIMPO_INQ_PROP_UNDER_CURSOR": 16,
    "MQIMPO_CONVERT_VALUE": 32,
    "MQDMPO_DEL_FIRST": 0,
    "MQDMPO_NONE": 0,
    "MQDMPO_DEL_PROP_UNDER_CURSOR": 1,
    "MQPROP_COMPATIBILITY": 0,
    "MQPROP_NONE": 1,
    "MQPROP_ALL": 2,
    "MQPROP_FORCE_MQRFH2": 3,
    "MQPROP_V6COMPAT": 4,
    "MQHM_NONE": 0,
    "MQHM_UNUSABLE_HMSG": -1,
    "MQACTP_NEW": 0,
    "MQACTP_FORWARD": 1,
    "MQACTP_REPLY": 2,
    "MQACTP_REPORT": 3,
    "MQIA_PROPERTY_CONTROL": 190,
    "MQRC_PROPERTY_NAME_ERROR": 2442,
    "MQRC_SELECTOR_SYNTAX_ERROR": 2459,
    "MQRC_CMHO_ERROR": 2461,
    "MQRC_DMHO_ERROR": 2462,
    "MQRC_SMPO_ERROR": 2463,
    "MQRC_IMPO_ERROR": 2464,
    "MQRC_PROPERTY_NAME_TOO_BIG": 2465,
    "MQRC_PROP_VALUE_NOT_CONVERTED": 2466,
    "MQRC_PROP_TYPE_NOT_SUPPORTED": 2467,
    "MQRC_PROPERTY_VALUE_TOO_BIG": 2469,
    "MQRC_PROP_CONV_NOT_SUPPORTED": 2470,
    "MQRC_PROPERTY_NOT_AVAILABLE": 2471,
    "MQRC_PROP_NUMBER_FORMAT_ERROR": 2472,
    "MQRC_PROPERTY_TYPE_ERROR": 2473,
    "MQRC_PROPERTIES_TOO_BIG": 2478,
    "MQRC_DMPO_ERROR": 2481,
    "MQRC_PD_ERROR": 2482,
    "MQRC_UNSUPPORTED_PROPERTY": 2490,
    "MQRC_SELECTOR_ALWAYS_FALSE": 2504,
    "MQRC_SELECTION_STRING_ERROR": 2519,
    "MQRC_STORAGE_NOT_AVAILABLE": 2071,
    "MQRC_HANDLE_NOT_AVAILABLE": 2017,  # MaxHandles reached (reference/limits.py)
    "MQRC_PROPERTY_NAME_LENGTH_ERR": 2513,
    "MQRC_ACTION_ERROR": 2535,
    # Publish/subscribe (issue 28; reference/topics.py, subscriptions.py, publish.py), read from cmqc.h
    "MQOT_Q": 1,
    "MQOT_TOPIC": 8,
    "MQSO_NONE": 0,
    "MQSO_NON_DURABLE": 0,
    "MQSO_READ_AHEAD_AS_Q_DEF": 0,
    "MQSO_ALTER": 1,
    "MQSO_CREATE": 2,
    "MQSO_RESUME": 4,
    "MQSO_DURABLE": 8,
    "MQSO_GROUP_SUB": 16,
    "MQSO_MANAGED": 32,
    "MQSO_SET_IDENTITY_CONTEXT": 64,
    "MQSO_NO_MULTICAST": 128,
    "MQSO_FIXED_USERID": 256,
    "MQSO_ANY_USERID": 512,
    "MQSO_PUBLICATIONS_ON_REQUEST": 2048,
    "MQSO_NEW_PUBLICATIONS_ONLY": 4096,
    "MQSO_FAIL_IF_QUIESCING": 8192,
    "MQSO_ALTERNATE_USER_AUTHORITY": 262144,
    "MQSO_WILDCARD_CHAR": 1048576,
    "MQSO_WILDCARD_TOPIC": 2097152,
    "MQSO_SET_CORREL_ID": 4194304,
    "MQSO_SCOPE_QMGR": 67108864,
    "MQSO_NO_READ_AHEAD": 134217728,
    "MQSO_READ_AHEAD": 268435456,
    "MQSR_ACTION_PUBLICATION": 1,
    "MQTA_PUB_AS_PARENT": 0,
    "MQTA_PUB_INHIBITED": 1,
    "MQTA_PUB_ALLOWED": 2,
    "MQTA_SUB_AS_PARENT": 0,
    "MQTA_SUB_INHIBITED": 1,
    "MQTA_SUB_ALLOWED": 2,
    "MQSUB_DURABLE_AS_PARENT": 0,
    "MQSUB_DURABLE_ALLOWED": 1,
    "MQSUB_DURABLE_INHIBITED": 2,
    "MQPRI_PRIORITY_AS_PARENT": -2,
    "MQPRI_PRIORITY_AS_PUBLISHED": -3,
    "MQRC_SD_ERROR": 2424,
    "MQRC_TOPIC_STRING_ERROR": 2425,
    "MQRC_NO_SUBSCRIPTION": 2428,
    "MQRC_SUBSCRIPTION_IN_USE": 2429,
    "MQRC_SUB_ALREADY_EXISTS": 2432,
    "MQRC_IDENTITY_MISMATCH": 2434,
    "MQRC_DURABILITY_NOT_ALLOWED": 2436,
    "MQRC_NO_RETAINED_MSG": 2437,
    "MQRC_SUB_NAME_ERROR": 2440,
    "MQRC_OBJECT_STRING_ERROR": 2441,
    "MQRC_SUB_INHIBITED": 2503,
    "MQRC_DURABILITY_NOT_ALTERABLE": 2509,
    "MQRC_NO_SUBS_MATCHED": 2550,
    "MQIA_INHIBIT_PUB": 181,
    "MQIA_INHIBIT_SUB": 182,
    "MQIA_DURABLE_SUB": 175,
    "MQCA_TOPIC_STRING": 2094,
    # A SelectionString on an MQOPEN that may not take one (reference/open.py; issue 37)
    "MQRC_SELECTOR_INVALID_FOR_TYPE": 2516,
    # Subscription levels (MQSD SubLevel, MQPMO PubLevel: reference/publish.py; issue 37)
    "MQRC_SUBLEVEL_NOT_ALTERABLE": 2512,
    # MQMHBUF and MQBUFMH (reference/properties.py; issue 37): their options
    "MQMHBO_NONE": 0,
    "MQMHBO_PROPERTIES_IN_MQRFH2": 1,
    "MQMHBO_DELETE_PROPERTIES": 2,
    "MQBMHO_NONE": 0,
    "MQBMHO_DELETE_PROPERTIES": 1,
    # Distributed queuing (reference/distributed.py): remote queues, transmission queues, channels, the
    # dead-letter queue
    "MQQT_REMOTE": 6,
    "MQUS_NORMAL": 0,
    "MQUS_TRANSMISSION": 1,
    "MQIA_USAGE": 12,
    "MQCA_REMOTE_Q_MGR_NAME": 2017,
    "MQCA_REMOTE_Q_NAME": 2018,
    "MQCA_XMIT_Q_NAME": 2024,
    "MQCA_DEF_XMIT_Q_NAME": 2025,
    "MQCA_DEAD_LETTER_Q_NAME": 2006,
    "MQCA_Q_MGR_NAME": 2015,
    "MQRC_XMIT_Q_TYPE_ERROR": 2091,
    "MQRC_XMIT_Q_USAGE_ERROR": 2092,
    "MQRC_UNKNOWN_XMIT_Q": 2196,
    "MQRC_UNKNOWN_DEF_XMIT_Q": 2197,
    "MQRC_DEF_XMIT_Q_TYPE_ERROR": 2198,
    "MQRC_DEF_XMIT_Q_USAGE_ERROR": 2199,
    "MQAT_QMGR": 7,
    "MQNPMS_NORMAL": 1,
    "MQNPMS_FAST": 2,
    "MQUSEDLQ_NO": 1,  # a channel's USEDLQ (reference/channels.py)
    "MQUSEDLQ_YES": 2,
    "MQXQH_VERSION_1": 1,
    "MQDLH_VERSION_1": 1,
    # MQPD CopyOptions: the messages a property is copied into (reference/properties.py; issue 37)
    "MQCOPY_NONE": 0,
    "MQCOPY_ALL": 1,
    "MQCOPY_FORWARD": 2,
    "MQCOPY_PUBLISH": 4,
    "MQCOPY_REPLY": 8,
    "MQCOPY_REPORT": 16,
    "MQCOPY_DEFAULT": 22,
}

VALUES: dict[str, int] = {**_CHECKED, **_FROM_HEADER}

# Byte-string constants: all-zero "none" identifiers and the MQCI_NEW_SESSION correlation id.
BYTES: dict[str, bytes] = {
    "MQMI_NONE": bytes(24),
    "MQCI_NONE": bytes(24),
    "MQGI_NONE": bytes(24),
    "MQMTOK_NONE": bytes(16),
    "MQACT_NONE": bytes(32),
    "MQCI_NEW_SESSION": b"AMQ!NEW_SESSION_CORRELID",
}

# Eight-character format names (MQMD.Format).
FORMATS: dict[str, str] = {"MQFMT_NONE": "        ", "MQFMT_STRING": "MQSTR   ", "MQFMT_RF_HEADER_2": "MQHRF2  ",
                           "MQFMT_XMIT_Q_HEADER": "MQXMIT  ", "MQFMT_DEAD_LETTER_HEADER": "MQDEAD  ",
                           "MQFMT_MD_EXTENSION": "MQHMDE  "}

# Option fields whose value is a sum of independent bit flags, by the prefix of their constants.
OPTION_FAMILIES = ("MQGMO", "MQPMO", "MQOO", "MQMF", "MQMO", "MQCO", "MQRO", "MQSO",
                   "MQCMHO", "MQIMPO", "MQSMPO", "MQDMPO",  # message properties (properties.py)
                   "MQMHBO", "MQBMHO")  # MQMHBUF and MQBUFMH (properties.py)

# Report options are partly sub-fields: each report type is requested plain, with data or with full data, and the
# wider values include the narrower one's bits. Shown by name, a sub-field takes its widest name that fits.
SUBFIELDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "MQRO": (
        ("MQRO_EXCEPTION_WITH_FULL_DATA", "MQRO_EXCEPTION_WITH_DATA", "MQRO_EXCEPTION"),
        ("MQRO_EXPIRATION_WITH_FULL_DATA", "MQRO_EXPIRATION_WITH_DATA", "MQRO_EXPIRATION"),
        ("MQRO_COA_WITH_FULL_DATA", "MQRO_COA_WITH_DATA", "MQRO_COA"),
        ("MQRO_COD_WITH_FULL_DATA", "MQRO_COD_WITH_DATA", "MQRO_COD"),
    ),
}

# Names that are not a single flag of their family: composites of several flags and masks over a sub-field.
_NOT_FLAGS = frozenset({
    "MQGMO_BROWSE_HANDLE", "MQGMO_BROWSE_CO_OP",
    "MQMF_REJECT_UNSUP_MASK", "MQMF_ACCEPT_UNSUP_IF_XMIT_MASK", "MQMF_ACCEPT_UNSUP_MASK",
})

# Structure-version constants share a prefix with option families but are not options.
_VERSION_MARKERS = ("_VERSION_", "_CURRENT_VERSION", "_LENGTH_")


class UnknownConstant(ValueError):
    """A name that is not an MQ constant of the family where it was used."""


def family_of(name: str) -> str:
    """The prefix that groups a constant with its siblings (``MQGMO_WAIT`` -> ``MQGMO``)."""
    if name.startswith("MQCLWL_USEQ_"):
        return "MQCLWL_USEQ"
    return name.split("_", 1)[0]


def _is_flag(name: str, number: int) -> bool:
    return (
        number > 0
        and number & (number - 1) == 0
        and name not in _NOT_FLAGS
        and not any(marker in name for marker in _VERSION_MARKERS)
    )


def _build_flags() -> dict[str, dict[str, int]]:
    flags: dict[str, dict[str, int]] = {family: {} for family in OPTION_FAMILIES}
    for name, number in VALUES.items():
        family = family_of(name)
        if family in flags and _is_flag(name, number) and number not in flags[family].values():
            flags[family][name] = number
    return flags


def _build_names() -> dict[str, dict[int, str]]:
    # The first name listed for a value is its canonical spelling (MQCO_NONE before MQCO_IMMEDIATE).
    names: dict[str, dict[int, str]] = {}
    for name, number in VALUES.items():
        names.setdefault(family_of(name), {}).setdefault(number, name)
    return names


FLAGS: dict[str, dict[str, int]] = _build_flags()
# Every bit some name of the family stands for (a flag, or part of a sub-field's value); the rest are unknown.
NAMED_BITS: dict[str, int] = {
    family: sum(FLAGS[family].values()) | sum(VALUES[names[0]] for names in SUBFIELDS.get(family, ()))
    for family in OPTION_FAMILIES
}
NAMES: dict[str, dict[int, str]] = _build_names()


def value(name: str, family: str | None = None) -> int:
    """The numeric value of constant ``name``; with ``family``, also check it belongs there."""
    if family is not None and family_of(name) != family:
        raise UnknownConstant(f"{name} is not an {family}_* constant")
    try:
        return VALUES[name]
    except KeyError:
        raise UnknownConstant(f"unknown MQ constant {name}") from None


def is_option_name(name: str, family: str) -> bool:
    """Whether ``name`` is an option of ``family`` (a flag, a composite, or a zero-valued option), rather than a
    structure version, length or mask that merely shares the prefix."""
    return (family_of(name) == family and name in VALUES and not any(m in name for m in _VERSION_MARKERS)
            and "_MASK" not in name)


def options(names: Iterable[str], family: str) -> int:
    """The option field value for a list of option names of one family (composites allowed)."""
    total = 0
    for name in names:
        total |= value(name, family)
    return total


def option_names(number: int, family: str) -> list[str]:
    """The names of the flags set in option field ``number``, in ascending bit order.

    Bits that no known flag of the family covers are shown as a hexadecimal residue, so that nothing an
    implementation returns is hidden.
    """
    found, rest = [], number
    for names in SUBFIELDS.get(family, ()):
        for name in names:
            if rest & VALUES[name] == VALUES[name]:
                found.append(name)
                rest &= ~VALUES[name]
                break
    flags = [name for name, bit in FLAGS[family].items() if rest & bit]
    found = sorted(found + flags, key=VALUES.__getitem__)
    rest &= ~sum(FLAGS[family][name] for name in flags)
    if rest:
        found.append(f"0x{rest & 0xFFFFFFFF:08X}")
    return found


def name_of(number: int, family: str) -> str:
    """The canonical name of an enumerated value (``name_of(2033, "MQRC")`` -> ``MQRC_NO_MSG_AVAILABLE``)."""
    try:
        return NAMES[family][number]
    except KeyError:
        return f"{family}_{number}"


def bytes_value(name: str) -> bytes:
    """The byte string of an identifier constant such as ``MQGI_NONE``."""
    try:
        return BYTES[name]
    except KeyError:
        raise UnknownConstant(f"unknown MQ byte-string constant {name}") from None
