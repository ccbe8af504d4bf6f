"""The model's clock: milliseconds since an epoch the caller chooses, advanced only on request.

The model never reads the wall clock, so two runs of the same calls give the same PutDate and PutTime.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field

_EPOCH = _dt.datetime(2026, 1, 1, tzinfo=_dt.timezone.utc)


@dataclass(slots=True)
class Clock:
    """An injectable clock. ``now_ms`` moves only through :meth:`advance`."""

    now_ms: int = 0
    # The last hundredth of a second formatted (PutTime's resolution), with its PutDate and PutTime: a cache, not
    # part of the value. A clock following the wall clock moves by a millisecond or so between puts.
    _formatted: tuple[int, str, str] = field(default=(-1, "", ""), compare=False, repr=False)

    def advance(self, milliseconds: int) -> None:
        """Move the clock forward (never backward)."""
        if milliseconds < 0:
            raise ValueError("the clock only moves forward")
        self.now_ms += milliseconds

    def put_date_time(self) -> tuple[str, str]:
        """PutDate (YYYYMMDD) and PutTime (HHMMSSTH) for the current instant, as MQ formats them in GMT."""
        hundredth = self.now_ms // 10
        if self._formatted[0] != hundredth:
            moment = _EPOCH + _dt.timedelta(milliseconds=self.now_ms)
            hundredths = moment.microsecond // 10_000
            put_time = moment.strftime("%H%M%S") + f"{hundredths:02d}"
            self._formatted = (hundredth, moment.strftime("%Y%m%d"), put_time)
        return self._formatted[1], self._formatted[2]
