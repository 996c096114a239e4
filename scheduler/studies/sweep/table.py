"""The results of a sweep: :class:`Sweep`, the variants' plans side by side, its tables
and CSV files."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from scheduler.core.atomic_files import write_files
from scheduler.core.text import csv_cells
from scheduler.export.comparison import TOTAL_COLUMNS, Comparison
from scheduler.result.plan import Plan
from scheduler.studies.sweep.variants import text


@dataclass(frozen=True, eq=False)
class Sweep(Comparison):
    """The plans of a sweep side by side (every :class:`Comparison` table, columns = variants
    in order), with ``plans`` (name -> Plan) and ``changes`` (name -> {key: value}).

    ``table`` is the one-row-per-variant summary written as the sweep's CSV; ``usage_long``
    and ``moved_long`` are the detail tables written beside it."""

    plans: Mapping[str, Plan] = field(default_factory=dict, repr=False)
    changes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, repr=False)

    @property
    def table(self) -> pd.DataFrame:
        """One row per variant (index ``variant``, in order): one column per varied key (the
        value as text; empty when the variant leaves it), then ``status`` (str) and
        ``placed, not_placed, required_missing, fees_usd`` (USD) as in ``totals``; ``moved``:
        occurrences whose first day differs from the first variant's (placed in one and not
        the other counts); then per limit rule ID (MT-LARGE-LIMIT, MT-CHARITY-LIMIT,
        ME-MONTHLY-LIMIT, ME-SUPER-CRIBBAGE): ``RULE used`` (counted uses summed over
        operators and periods) and ``RULE at limit`` (operator-periods using all of it).
        Counts int64."""
        names = list(self.totals.index)
        keys = list(dict.fromkeys(k for n in names for k in self.changes.get(n, {})))
        df = pd.DataFrame({k: [text(self.changes[n][k]) if k in self.changes.get(n, {})
                               else "" for n in names] for k in keys},
                          index=pd.Index(names, name="variant"), dtype=object)
        df = df.join(self.totals.rename_axis("variant"))
        first = self.first_days[names[0]]
        same = self.first_days.apply(lambda col: (col == first) | (col.isna() & first.isna()))
        df["moved"] = (~same).sum().reindex(names).astype("int64")
        use = self.usage
        for rule in sorted(use.index.get_level_values("rule_id").unique()):
            part = use.xs(rule, level="rule_id")
            limit = part.index.get_level_values("limit").to_numpy()[:, None]
            values = part.to_numpy()
            df[f"{rule} used"] = pd.Series(values.sum(axis=0), index=part.columns,
                                           dtype="int64")
            df[f"{rule} at limit"] = pd.Series((values >= limit).sum(axis=0),
                                               index=part.columns, dtype="int64")
        return df

    @property
    def usage_long(self) -> pd.DataFrame:
        """Every counted limit per variant (variant order, then operator, rule, period):
        ``variant, operator_id, rule_id`` (str), ``period_start, period_end`` (datetime64),
        ``limit, used`` (int64)."""
        idx = list(self.usage.index.names)
        df = self.usage.reset_index().melt(id_vars=idx, var_name="variant", value_name="used")
        return df[["variant", *idx, "used"]].astype({"used": "int64"})

    @property
    def moved_long(self) -> pd.DataFrame:
        """The occurrences not on the same first day in every variant, per variant (variant
        order, then tournament and occurrence): ``variant, tournament_id`` (str),
        ``occurrence`` (int64), ``first_day`` (datetime64, NaT when not placed)."""
        idx = list(self.first_days.index.names)
        df = self.moved.reset_index().melt(id_vars=idx, var_name="variant",
                                           value_name="first_day")
        return df[["variant", *idx, "first_day"]]

    def summary(self) -> str:
        """The short terminal table: variant, status, placed, not placed, required missing,
        fees (USD), moved."""
        t = self.table[["status", *TOTAL_COLUMNS[1:], "moved"]].rename(columns={
            "not_placed": "not placed", "required_missing": "required missing",
            "fees_usd": "fees USD"})
        return t.to_string() + "\n"

    @staticmethod
    def outputs(path: str | Path) -> list[Path]:
        """The files :meth:`write_csv` writes for ``path``: it, ``STEM.usage.csv`` and
        ``STEM.moved.csv`` beside it."""
        out = Path(path)
        stem = out.name.removesuffix(".csv")
        return [out, out.with_name(f"{stem}.usage.csv"), out.with_name(f"{stem}.moved.csv")]

    def write_csv(self, path: str | Path) -> list[Path]:
        """Write ``table`` to ``path`` and, beside it, ``usage_long`` to ``STEM.usage.csv``
        and ``moved_long`` to ``STEM.moved.csv`` (UTF-8, ``\\n`` line ends, dates
        YYYY-MM-DD): the same sweep gives the same bytes. A text cell a spreadsheet would run
        as a formula (``=``, ``+``, ``-``, ``@``...) starts with ``'``
        (:func:`scheduler.core.text.cell`). Atomic
        (:func:`scheduler.core.atomic_files.write_files`): each
        file is complete or not there; when one cannot be written none is replaced. Returns
        the paths. :meth:`outputs` names them beforehand.

        Raises ``OSError`` (``IsADirectoryError`` when ``path`` is a folder)."""
        out = Path(path)
        if out.is_dir():
            raise IsADirectoryError(f"{out} is a folder; give a file name, e.g. "
                                    f"{out / 'results.csv'}")
        stem = out.name.removesuffix(".csv")
        targets = {out: self.table.reset_index(),
                   out.with_name(f"{stem}.usage.csv"): self.usage_long,
                   out.with_name(f"{stem}.moved.csv"): self.moved_long}
        write_files({target: spreadsheet_safe(df).to_csv(
            index=False, lineterminator="\n", date_format="%Y-%m-%d").encode("utf-8")
            for target, df in targets.items()})
        return list(targets)

    def _repr_html_(self) -> str:
        return self.table.to_html(escape=True)


def spreadsheet_safe(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with every text cell passed through :func:`scheduler.core.text.cell` (variant names
    and values are the user's text)."""
    out = df.copy()
    for col in out.columns:
        if out[col].dtype == object or pd.api.types.is_string_dtype(out[col]):
            out[col] = out[col].map(csv_cells)
    return out
