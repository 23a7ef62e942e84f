"""mindtorch's logger, configured from the manual's `MSA_LOG` environment variable.

`MSA_LOG` (read once, at import): 0 DEBUG, 1 INFO, 2 WARNING (default), 3 ERROR, 4 CRITICAL; messages at or
above the level are shown. MindSpore's own log level is `GLOG_v` (separate). Use `get_logger(__name__)` in
mindtorch's modules: the loggers are children of the "mindtorch" logger and inherit its level.
"""
from __future__ import annotations

import logging
import os
from typing import Optional

__all__ = ["LEVELS", "logger", "get_logger", "level_from_env", "warn_once"]

LEVELS = {0: logging.DEBUG, 1: logging.INFO, 2: logging.WARNING, 3: logging.ERROR, 4: logging.CRITICAL}
_DEFAULT = 2


def level_from_env(value: Optional[str] = None) -> int:
    """The logging level MSA_LOG asks for (`value` defaults to the environment); an invalid value -> WARNING."""
    raw = os.environ.get("MSA_LOG", "") if value is None else value
    try:
        return LEVELS[int(str(raw).strip())]
    except (ValueError, KeyError):
        return LEVELS[_DEFAULT]


logger = logging.getLogger("mindtorch")
logger.setLevel(level_from_env())
if not logger.handlers:
    # Our own handler so the messages show without the user configuring logging (like torch's warnings);
    # propagate=False keeps them from being printed twice by a root handler the application adds.
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("[mindtorch %(levelname)s] %(name)s: %(message)s"))
    logger.addHandler(_handler)
    logger.propagate = False

_warned: set = set()


def get_logger(name: str) -> logging.Logger:
    """A child of the "mindtorch" logger (`name` is usually the module's __name__)."""
    return logging.getLogger(name if name.startswith("mindtorch") else "mindtorch." + name)


def warn_once(key: str, message: str, log: Optional[logging.Logger] = None) -> None:
    """Log `message` at WARNING the first time `key` is seen in this process."""
    if key not in _warned:
        _warned.add(key)
        (log or logger).warning(message)
