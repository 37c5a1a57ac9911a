"""Running heat_side.py in the oracle: one subprocess, a request file in, answers out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests import oracle

HEAT_SIDE = Path(__file__).with_name("heat_side.py")


def run_heat_side(request: dict[str, Any], directory: Path, timeout: float = 900) -> Any:
    request_path = directory / "validate-request.json"
    request_path.write_text(json.dumps(request))
    return oracle.run_json(HEAT_SIDE.read_text(), str(request_path), timeout=timeout)
