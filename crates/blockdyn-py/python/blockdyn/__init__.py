"""blockdyn: block-diagram simulation of rigid-body mechanisms in contact.

Load a model file (or text, or build one with :class:`Builder`), run it, and read what it
recorded as numpy arrays::

    import blockdyn
    m = blockdyn.load("models/ball_drop.toml", set={"contact.normal.stiffness": 1e6})
    r = m.simulate(stop_time=2.0)
    r.time, r["free.p[2]"], r.columns, r.events, r.stats

Runs release the GIL: :func:`sweep` runs many variants on threads, and any Python threads may
call :meth:`Model.simulate` at once. Errors are :class:`ModelError` (with ``file``, ``line``,
``column``, ``block``, ``hint``) and :class:`SimulationError`, both :class:`Error`, carrying the
CLI's text. The guide is docs/python.md in the repository.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Sequence
from typing import Any, Dict, Iterator, List, Mapping, Optional, Union, overload

from ._blockdyn import (
    BlockHandle,
    BlockSpec,
    Builder,
    Error,
    Event,
    Model,
    ModelError,
    ModelWarning,
    ParameterVector,
    SimulationError,
    SimulationResult,
    Stats,
    __version__,
    _MAX_SWEEP_POINTS,
    _MAX_VALUE_DEPTH,
    _sweep,
    linearize,
    load,
    loads,
    trim,
)

__all__ = [
    "BlockHandle",
    "BlockSpec",
    "Builder",
    "Error",
    "Event",
    "Model",
    "ModelError",
    "ModelWarning",
    "ParameterVector",
    "SimulationError",
    "SimulationResult",
    "Stats",
    "SweepResult",
    "__version__",
    "linearize",
    "load",
    "loads",
    "sweep",
    "trim",
]


class SweepResult(Sequence):
    """The runs of a :func:`sweep`, in point order.

    ``s.points[k]`` is point k's values (a dict ``{path: value}``), ``s.results[k]`` (or ``s[k]``)
    its :class:`SimulationResult` (or, with ``errors="keep"``, the :class:`SimulationError` of a
    failed point). ``len(s)`` is the number of points; iterating gives the results.
    """

    def __init__(self, points: List[Dict[str, Any]], results: List[Any]) -> None:
        self.points: List[Dict[str, Any]] = points
        self.results: List[Any] = results

    def __len__(self) -> int:
        return len(self.results)

    @overload
    def __getitem__(self, k: int) -> Any: ...

    @overload
    def __getitem__(self, k: slice) -> List[Any]: ...

    def __getitem__(self, k):
        return self.results[k]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.results)

    def __repr__(self) -> str:
        failed = sum(isinstance(r, SimulationError) for r in self.results)
        return f"<blockdyn.SweepResult: {len(self.results)} points, {failed} failed>"

    def summary(self) -> List[Dict[str, Any]]:
        """One dict per point: its values, ``status`` (``"ok"`` or ``"failed"``), the solver's
        ``steps``, ``final_time``, the last value of every recorded column, and ``message`` (why
        a point failed, else empty) -- the rows of ``blockdyn sweep``'s summary.csv."""
        rows = []
        for point, result in zip(self.points, self.results):
            row: Dict[str, Any] = dict(point)
            if isinstance(result, SimulationError):
                row.update(status="failed", steps=None, final_time=None, message=str(result))
            else:
                row.update(status="ok", steps=result.stats.steps, final_time=result.stats.final_time)
                last = result.values[-1] if len(result) else None
                for j, name in enumerate(result.columns):
                    row[name] = None if last is None else float(last[j])
                row["message"] = ""
            rows.append(row)
        return rows

    def to_pandas(self):
        """:meth:`summary` as a ``pandas.DataFrame`` (needs pandas)."""
        try:
            import pandas
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError(f"SweepResult.to_pandas() needs pandas: pip install pandas ({e})") from e
        return pandas.DataFrame(self.summary())


def _check_sweep_size(vary: Mapping[str, Any]) -> None:
    """Raises ValueError for a sweep of more than the limit's points, counted from the lengths
    of the ``vary`` lists before any is copied (an iterator without a length is counted by
    ``_sweep`` once listed)."""
    count = 1
    lengths = []
    at_least = ""
    for values in vary.values():
        try:
            n = len(values)
        except OverflowError:  # a range longer than sys.maxsize
            n = sys.maxsize + 1
            at_least = "at least "
            lengths.append(f"more than {sys.maxsize}")
        except TypeError:
            return
        else:
            lengths.append(str(n))
        count *= n
    if count > _MAX_SWEEP_POINTS:
        raise ValueError(
            f"vary: the sweep has {at_least}{count} points ({' × '.join(lengths)}), more than the limit "
            f"of {_MAX_SWEEP_POINTS} points; vary fewer values, or split the sweep into several "
            "calls (each with a part of a list)"
        )


def sweep(
    model: Model,
    vary: Mapping[str, Sequence[Any]],
    *,
    set: Union[Mapping[str, Any], Sequence[str], None] = None,
    jobs: Optional[int] = None,
    errors: str = "raise",
) -> SweepResult:
    """Runs ``model`` at every combination of the ``vary`` values, on ``jobs`` threads.

    ``vary`` maps a dotted path (as ``set`` takes it) to its list of values:
    ``{"contact.normal.stiffness": [1e5, 2e5], "contact.normal.damping": [10, 100, 1000]}``
    gives 6 points, the last key varying fastest (``blockdyn sweep``'s order). ``set`` overrides
    apply to every point (after the model's own overrides, before the point's values). ``jobs``
    is the number of threads (default: every core); the GIL is released meanwhile, and the
    results are the same bit for bit for any ``jobs``.

    Every point is built before any runs: a bad path or value raises :class:`ModelError` before
    the first run. A failed run raises its :class:`SimulationError` (``e.point`` is its index)
    once every point ran; with ``errors="keep"`` it takes the point's place in the results.
    Returns a :class:`SweepResult`. Ctrl-C stops the runs under way and raises
    ``KeyboardInterrupt``; the points that had finished are its ``partial`` attribute (a
    :class:`SweepResult` of those points alone, in point order), when any had.
    """
    if errors not in ("raise", "keep"):
        raise ValueError(f'errors is "raise" or "keep", not {errors!r}')
    vary = dict(vary)
    _check_sweep_size(vary)
    # Lists, so that an iterator given as a value is not used up by the run before the points
    # are listed.
    vary = {k: list(v) for k, v in vary.items()}
    keys = list(vary)
    try:
        results = _sweep(model, vary, set, jobs, errors == "keep")
    except KeyboardInterrupt as e:
        # The points that finished before Ctrl-C, with their values, as `e.partial`.
        finished = dict(getattr(e, "_finished", []))
        if finished:
            points = itertools.product(*(vary[k] for k in keys))
            done = [dict(zip(keys, p)) for k, p in enumerate(points) if k in finished]
            e.partial = SweepResult(done, [finished[k] for k in sorted(finished)])
        raise
    points = [dict(zip(keys, values)) for values in itertools.product(*(list(vary[k]) for k in keys))]
    return SweepResult(points, results)
