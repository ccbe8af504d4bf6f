"""pymqi applications on the emulator unchanged (emulator/pymqi_compat.py, issue 38 item 6): ``import pymqi``
gives IBM's ibmmq under pymqi's module layout, with the channel-definition names pymqi's CMQC had (IBM's cmqxc.h:
MQCHT_CLNTCONN, MQXPT_TCP...), and an application's own modules named like ibmmq's helpers (mqqueue, mqpcf...)
are found, not IBM's."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)


def _run(tmp_path, program: str) -> subprocess.CompletedProcess:
    (tmp_path / "app.py").write_text(textwrap.dedent(program))
    return subprocess.run([sys.executable, "app.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)


def test_a_pymqi_application_runs_unchanged_on_the_emulator(tmp_path):
    done = _run(tmp_path, """
        from mq_conformance.emulator import emulated_mq
        with emulated_mq(queues=("APP.Q",)):
            import pymqi
            from pymqi import CMQC, CMQCFC, CMQXC
            assert CMQC.MQCHT_CLNTCONN == CMQXC.MQCHT_CLNTCONN and CMQC.MQXPT_TCP == CMQXC.MQXPT_TCP
            assert CMQC.MQOO_OUTPUT == 16 and CMQCFC.MQCMD_INQUIRE_Q == 13
            cd = pymqi.CD(ChannelName=b"DEV.APP.SVRCONN", ConnectionName=b"localhost(1414)",
                          ChannelType=CMQC.MQCHT_CLNTCONN, TransportType=CMQC.MQXPT_TCP)
            qmgr = pymqi.QueueManager(None)
            qmgr.connect_with_options("QM1", cd=cd)
            pymqi.Queue(qmgr, "APP.Q").put(b"from pymqi")
            [answer] = pymqi.PCFExecute(qmgr).MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"APP.Q"})
            assert answer[CMQC.MQIA_CURRENT_Q_DEPTH] == 1
            import pymqi.CMQC as again
            assert again is CMQC
            rfh2 = pymqi.RFH2()  # pymqi's field name for the structure identifier
            assert rfh2["StrucId"] == CMQC.MQRFH_STRUC_ID and rfh2.pack()[:4] == CMQC.MQRFH_STRUC_ID
            print("ok")
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_an_applications_own_modules_are_not_hidden_by_ibmmqs(tmp_path):
    (tmp_path / "mqqueue.py").write_text("OWNER = 'application'\n")
    (tmp_path / "mqpcf.py").write_text("OWNER = 'application'\n")
    done = _run(tmp_path, """
        from mq_conformance.emulator import install
        install()
        import ibmmq
        import mqqueue, mqpcf
        assert mqqueue.OWNER == mqpcf.OWNER == "application", (mqqueue, mqpcf)
        assert ibmmq.Queue.__module__ == "mqqueue"  # IBM's own classes keep working
        print("ok")
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
