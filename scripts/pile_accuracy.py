#!/usr/bin/env python3
"""The sphere pile against MuJoCo at equal accuracy (issue 30, speed): one command for the table.

Each code is measured against its own tight reference (the two contact models differ by
centimetres, so a distance between the codes measures the models, not the integration):

  blockdyn  rel_tol 1e-1, 3e-2, 1e-2, 3e-3, 1e-3, 3e-4, 1e-4 (the default), 1e-5, 1e-6, 1e-7
            (abs_tol = rel_tol / 100, the ratio of the models' default 1e-4 / 1e-6) against blockdyn
            at rel_tol 1e-9 (abs_tol 1e-11), checked against rel_tol 1e-10 (abs_tol 1e-12);
  MuJoCo    dt 1e-3, 3e-4, 1e-4, 3e-5, 1e-5 (Euler, ../shared/bench/scale/spheres_mujoco.py) against
            MuJoCo at dt 1e-6, checked against dt 3e-6.

The chaos floor: each code once more with sphere 0 started 1e-6 m further along x (blockdyn at
its reference tolerance, MuJoCo at its smallest dt of the curve), against the same run unmoved:
how far a micrometre in the initial positions moves the pile at t = 0.5 s.

Error at t = 0.5 s (cmp_pos.py's measures, on the sphere centres): the median and the maximum over
the spheres of the centre distance to the reference (m), and the difference of the mean centre
height (m). The pile is chaotic: the median and the mean height are the measures to read, not the
worst sphere. Each run is also compared with the other code's reference, for the record.

Cost: blockdyn's deterministic counts (steps, rejected steps, evaluations of f and of the
zero-crossing functions g, located crossings; from the event_costs example when --event-costs
is given, else from `blockdyn run`'s summary, which has no g) and its user CPU (the child's
rusage: model load and build included, ~1 % of a run); MuJoCo's `cpu_s` (process time of the
mj_step calls only). Then --rounds R timed rounds in one sitting, every configuration once per
round, blockdyn and MuJoCo alternating; the table shows the median and the range.

The summary: the cost of each code at the accuracy of MuJoCo at dt 1e-4 and at a median of
1e-3 m (issue 30's "within 1e-3 m of a tight reference"), interpolated log-log between the two
neighbouring points of each curve, and the growth exponent from N = 16 to N = 256 at equal
accuracy.

Usage (nothing is written into the repository; every model, reference and run is cached in OUT):

  python3 scripts/pile_accuracy.py OUT [--quick] [--ns 16,64,256] [--rounds 3] [--set KEY=VALUE ...]
        [--blockdyn $CARGO_TARGET_DIR/release/blockdyn (default; target/ without the variable)]
        [--event-costs $CARGO_TARGET_DIR/release/examples/event_costs]
        [--peer-py /tmp/peervenv/bin/python] [--scale ../shared/bench/scale]

  --quick    N = 16 only, three points each (blockdyn 1e-2, 1e-3, 1e-4 against 1e-8 checked with
             1e-9; MuJoCo dt 1e-3, 1e-4, 3e-5 against 3e-6 checked with 1e-5), one timed round:
             about 40 s of wall time on the shared 2-core machine.
  --rounds 0 runs no timed round: the table takes the rounds already in OUT/timing.jsonl (every
             invocation with rounds appends its own), else the accuracy pass's CPU, marked *.

Writes OUT/models/pN.toml (scripts/gen_group_models.py --pile N --stop 0.5), OUT/ref/ and
OUT/runs/ (the CSVs and JSON lines of every run, reused when present: delete one to redo it),
OUT/timing.jsonl (appended by every timed round), OUT/results.json and OUT/table.md (printed).
The full run (N = 16, 64, 256) takes about an hour of CPU, most of it MuJoCo's N = 256
reference at dt 1e-6 and blockdyn's N = 256 runs.
"""
import argparse
import csv
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
STOP = 0.5  # s, the window
ABS_PER_REL = 1e-2  # abs_tol = rel_tol * 1e-2, the models' default ratio (1e-4 / 1e-6)
TARGET = 1e-3  # m, issue 30's accuracy: median centre distance to a tight reference

FULL = dict(ns=(16, 64, 256), bd_tols=(1e-1, 3e-2, 1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 1e-5, 1e-6, 1e-7),
            bd_ref=(1e-9, 1e-10),
            mj_dts=(1e-3, 3e-4, 1e-4, 3e-5, 1e-5), mj_ref=(1e-6, 3e-6), rounds=3)
QUICK = dict(ns=(16,), bd_tols=(1e-2, 1e-3, 1e-4), bd_ref=(1e-8, 1e-9),
             mj_dts=(1e-3, 1e-4, 3e-5), mj_ref=(3e-6, 1e-5), rounds=1)
MJ_EQUAL = 1e-4  # MuJoCo's dt whose accuracy blockdyn is costed at


# ---------------------------------------------------------------- runs


def tag(x):
    return "%g" % x


def run_child(cmd, stdout):
    """Run cmd, its stdout into the file `stdout`; return (exit code, user CPU s, wall s)."""
    with open(stdout, "w") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime, wall


SUMMARY = re.compile(r"(\d+) steps \((\d+) rejected\), (\d+) evaluations, (\d+) zero crossings")
EVENT_COSTS = re.compile(r"(\d+) steps \((\d+) rejected, \d+ redone\), (\d+) evaluations of f, (\d+) of g, "
                         r"(\d+) crossings")


def blockdyn_set(rel):
    """The overrides for rel_tol `rel` (abs_tol written as %g: 1e-4 * 1e-2 is 1.0000000000000002e-06 in
    binary, and the pile's step sequence is chaotic enough that such a difference changes the counts)."""
    return ["--set", "solver.rel_tol=%g" % rel, "--set", "solver.abs_tol=%g" % (rel * ABS_PER_REL)]


def extra_sets(a):
    """The `--set` overrides of the curve's blockdyn runs (not of the references)."""
    return [x for kv in a.set for x in ("--set", kv)]


def sets_tag(a):
    """The suffix naming the curve's runs and timing file under `--set` ("" without)."""
    return "".join("_" + re.sub(r"[^A-Za-z0-9.]+", "-", kv) for kv in a.set)


def blockdyn_run(a, model, rel, csv_path, count_g=True, extra=()):
    """One blockdyn run writing csv_path (cached with its .json beside it); returns its record.
    With --event-costs and count_g, the same run's g evaluations are counted too (also for a
    cached run that lacks them)."""
    meta = csv_path + ".json"
    if os.path.exists(meta) and os.path.exists(csv_path):
        rec = json.load(open(meta))
    else:
        log = csv_path + ".log"
        code, user, wall = run_child([a.blockdyn, "run", model, "--csv", csv_path] + blockdyn_set(rel)
                                     + list(extra), log)
        text = open(log).read()
        if code != 0:
            sys.exit("blockdyn failed (%s): %s" % (log, text[-500:]))
        m = SUMMARY.search(text)
        rec = dict(code="blockdyn", rel_tol=rel, user_s=user, wall_s=wall, summary=text.splitlines()[0])
        rec.update(zip(("steps", "rejected", "f_evals", "crossings"), map(int, m.groups())))
    if a.event_costs and count_g and "g_evals" not in rec:
        ec_log = csv_path + ".event_costs"
        code, _, _ = run_child([a.event_costs, model] + blockdyn_set(rel) + list(extra), ec_log)
        m = EVENT_COSTS.search(open(ec_log).read())
        if code == 0 and m:
            rec["g_evals"] = int(m.group(4))
            rec["event_costs_steps"] = int(m.group(1))  # the same run without the CSV: equal to steps
    json.dump(rec, open(meta, "w"))
    return rec


def mujoco_run(a, n, dt, json_path):
    """One MuJoCo run writing json_path (cached); returns its record (JSON line of spheres_mujoco.py)."""
    if not os.path.exists(json_path):
        tmp = json_path + ".tmp"
        code, _, _ = run_child([a.peer_py, os.path.join(a.scale, "spheres_mujoco.py"), "--n", str(n),
                                "--dt", repr(dt), "--stop", repr(STOP)], tmp)
        if code != 0:
            sys.exit("MuJoCo failed: %s" % open(tmp).read()[-500:])
        os.replace(tmp, json_path)
    return json.loads(open(json_path).read().strip().splitlines()[-1])


# ---------------------------------------------------------------- positions and errors


def centres(path):
    """Sphere centres [(x, y, z)] at t = STOP from a blockdyn CSV (the free*.p columns of the last
    row at STOP) or a spheres_mujoco.py JSON line."""
    if path.endswith(".json"):
        d = json.loads(open(path).read().strip().splitlines()[-1])
        return [tuple(p) for p in d["pos"][[abs(t - STOP) < 1e-12 for t in d["times"]].index(True)]]
    with open(path) as f:
        rows = csv.reader(f)
        head = next(rows)
        cols = [k for k, c in enumerate(head) if re.fullmatch(r"free\d+\.p\[[012]\]", c)]
        last = None
        for r in rows:
            if abs(float(r[0]) - STOP) < 1e-12:
                last = r
    if last is None:
        sys.exit("%s has no row at t = %g" % (path, STOP))
    v = [float(last[k]) for k in cols]
    return [tuple(v[i:i + 3]) for i in range(0, len(v), 3)]


def errors(run, ref):
    """(median, max) centre distance and mean-height difference (run - ref), m."""
    d = sorted(math.dist(p, q) for p, q in zip(run, ref))
    dz = statistics.fmean(p[2] for p in run) - statistics.fmean(q[2] for q in ref)
    return dict(median=statistics.median(d), max=d[-1], dz=dz)


# ---------------------------------------------------------------- the curve


def score_median(target_median):
    """A point's error as a multiple of a median centre distance (<= 1: as accurate)."""
    return lambda p: p["err"]["median"] / target_median


def score_median_height(target):
    """A point's error as a multiple of the larger of `target`'s two measures' ratios: the median
    centre distance and the absolute mean-height difference (<= 1: as accurate on both)."""
    return lambda p: max(p["err"]["median"] / target["median"], abs(p["err"]["dz"]) / abs(target["dz"]))


def cost_at(points, score, key):
    """Cost `key` where score(point) = 1, interpolated log-log on `points` (loosest first) between
    the last point above 1 and the first of the tail of points all at or below 1 (the pile is
    chaotic: a tighter setting is not always more accurate, so the tail must meet it throughout).
    Returns (cost, the loosest setting of that tail, how): how is 'interp', 'loosest' (the loosest
    point already meets it: the cost is an upper bound) or None (the tightest point misses it)."""
    ok = [score(p) <= 1 for p in points]
    if not ok[-1]:
        return None, None, None
    i = len(ok) - 1
    while i > 0 and ok[i - 1]:
        i -= 1
    if i == 0:
        return points[0][key], points[0]["x"], "loosest"
    lo, hi = points[i - 1], points[i]
    x0, x1 = math.log(score(lo)), math.log(score(hi))
    y0, y1 = math.log(lo[key]), math.log(hi[key])
    return math.exp(y0 - x0 * (y1 - y0) / (x1 - x0)), hi["x"], "interp"


def fmt_cost(cost, how, unit=" s"):
    if cost is None:
        return "not reached"
    return "%s%.3g%s" % ("≤ " if how == "loosest" else "", cost, unit)  # "loosest": an upper bound


# ---------------------------------------------------------------- the chaos floor

NUDGE = 1e-6  # m: sphere 0 moved this far along x at t = 0, far below any physical tolerance

MUJOCO_NUDGED = """
import sys
sys.path.insert(0, sys.argv[1])
import scene
unmoved, nudge = scene.positions, float(sys.argv[2])
def nudged(n):
    p = unmoved(n)
    p[0] = (p[0][0] + nudge,) + tuple(p[0][1:])
    return p
scene.positions = nudged
import spheres_mujoco
sys.argv = ["spheres_mujoco.py"] + sys.argv[3:]
spheres_mujoco.main()
"""


def nudged_position(model):
    """`--set free0.position=[...]` with sphere 0 moved NUDGE along x (read from the model file)."""
    text = open(model).read()
    m = re.search(r"\[blocks\.free0\]\ntype = \"SixDofJoint\"\nposition = \[([^\]]*)\]", text)
    x = [float(v) for v in m.group(1).split(",")]
    x[0] += NUDGE
    return "free0.position=[%r, %r, %r]" % tuple(x)


def chaos_floor(a, n, model, bd_tol, bd_ref_path, mj_run_path, mj_dt):
    """How far the pile's final centres move when sphere 0 starts NUDGE away, each code at a
    fixed setting (blockdyn at its reference tolerance, MuJoCo at dt mj_dt): integration errors
    below this are invisible to anyone whose initial positions are known to a micrometre."""
    p = os.path.join(a.out, "ref", "bd_n%d_r%s_nudged.csv" % (n, tag(bd_tol)))
    if not os.path.exists(p):
        code, _, _ = run_child([a.blockdyn, "run", "-q", model, "--csv", p, "--set", nudged_position(model)]
                               + blockdyn_set(bd_tol), p + ".log")
        if code != 0:
            sys.exit("blockdyn failed: %s" % open(p + ".log").read()[-500:])
    q = os.path.join(a.out, "ref", "mj_n%d_dt%s_nudged.json" % (n, tag(mj_dt)))
    if not os.path.exists(q):
        code, _, _ = run_child([a.peer_py, "-c", MUJOCO_NUDGED, a.scale, repr(NUDGE), "--n", str(n), "--dt",
                                repr(mj_dt), "--stop", repr(STOP)], q + ".tmp")
        if code != 0:
            sys.exit("MuJoCo failed: %s" % open(q + ".tmp").read()[-500:])
        os.replace(q + ".tmp", q)
    return dict(bd=errors(centres(p), centres(bd_ref_path)), mj=errors(centres(q), centres(mj_run_path)),
                mj_dt=mj_dt)


# ---------------------------------------------------------------- timing


def timed_rounds(a, cfg, paths):
    """cfg['rounds'] rounds, each runs every configuration once, blockdyn and MuJoCo alternating;
    appended to OUT/timing.jsonl."""
    out = open(timing_path(a), "a")
    scratch = os.path.join(a.out, "timing_scratch")
    os.makedirs(scratch, exist_ok=True)
    for rnd in range(cfg["rounds"]):
        for n in cfg["ns"]:
            bd = [("blockdyn", r) for r in cfg["bd_tols"]]
            mj = [("mujoco", dt) for dt in cfg["mj_dts"]]
            order = [c for pair in zip(bd, mj + [None] * len(bd)) for c in pair if c] + mj[len(bd):]
            for code, x in order:
                load = os.getloadavg()[0]
                if code == "blockdyn":
                    csv_path = os.path.join(scratch, "bd.csv")
                    _, user, wall = run_child([a.blockdyn, "run", "-q", paths[n], "--csv", csv_path]
                                              + blockdyn_set(x) + extra_sets(a), csv_path + ".log")
                    rec = dict(code=code, n=n, x=x, cpu_s=user, wall_s=wall)
                else:
                    p = os.path.join(scratch, "mj.json")
                    if os.path.exists(p):
                        os.remove(p)
                    d = mujoco_run(a, n, x, p)
                    rec = dict(code=code, n=n, x=x, cpu_s=d["cpu_s"], wall_s=d["wall_s"])
                rec.update(round=rnd, loadavg1=load, at=time.strftime("%H:%M:%S"))
                out.write(json.dumps(rec) + "\n")
                out.flush()
                print("  timed %s N=%d %g: %.3f s CPU (load %.1f)" % (code, n, x, rec["cpu_s"], load),
                      file=sys.stderr)


def timing_path(a):
    """OUT/timing.jsonl, or OUT/timing<tag>.jsonl for runs under `--set` (their rounds kept apart)."""
    return os.path.join(a.out, "timing%s.jsonl" % sets_tag(a))


def read_timing(a):
    times = {}
    path = timing_path(a)
    if os.path.exists(path):
        for line in open(path):
            r = json.loads(line)
            times.setdefault((r["code"], r["n"], r["x"]), []).append(r["cpu_s"])
    return times


# ---------------------------------------------------------------- main


def measure(a, cfg):
    for d in ("models", "ref", "runs"):
        os.makedirs(os.path.join(a.out, d), exist_ok=True)
    paths, res = {}, {}
    for n in cfg["ns"]:
        paths[n] = os.path.join(a.out, "models", "p%d.toml" % n)
        if not os.path.exists(paths[n]):
            text = subprocess.run([sys.executable, os.path.join(HERE, "gen_group_models.py"), "--pile", str(n),
                                   "--stop", repr(STOP)], check=True, capture_output=True, text=True).stdout
            open(paths[n], "w").write(text)
        print("N = %d: references" % n, file=sys.stderr)
        bd_refs = [os.path.join(a.out, "ref", "bd_n%d_r%s.csv" % (n, tag(r))) for r in cfg["bd_ref"]]
        bd_ref_recs = [blockdyn_run(a, paths[n], r, p, count_g=False) for r, p in zip(cfg["bd_ref"], bd_refs)]
        mj_refs = [os.path.join(a.out, "ref", "mj_n%d_dt%s.json" % (n, tag(dt))) for dt in cfg["mj_ref"]]
        mj_ref_recs = [mujoco_run(a, n, dt, p) for dt, p in zip(cfg["mj_ref"], mj_refs)]
        ref_bd, ref_mj = centres(bd_refs[0]), centres(mj_refs[0])
        r = dict(bd_ref_check=errors(centres(bd_refs[1]), ref_bd), mj_ref_check=errors(centres(mj_refs[1]), ref_mj),
                 bd_ref=bd_ref_recs[0], mj_ref_cpu=mj_ref_recs[0]["cpu_s"], bd=[], mj=[],
                 models_apart=errors(ref_mj, ref_bd))
        for rel in cfg["bd_tols"]:
            print("N = %d: blockdyn rel_tol %g" % (n, rel), file=sys.stderr)
            p = os.path.join(a.out, "runs", "bd_n%d_r%s%s.csv" % (n, tag(rel), sets_tag(a)))
            rec = blockdyn_run(a, paths[n], rel, p, extra=extra_sets(a))
            c = centres(p)
            rec.update(x=rel, err=errors(c, ref_bd), err_other=errors(c, ref_mj), cpu_s=rec["user_s"])
            r["bd"].append(rec)
        for dt in cfg["mj_dts"]:
            print("N = %d: MuJoCo dt %g" % (n, dt), file=sys.stderr)
            p = os.path.join(a.out, "runs", "mj_n%d_dt%s.json" % (n, tag(dt)))
            d = mujoco_run(a, n, dt, p)
            c = centres(p)
            r["mj"].append(dict(code="mujoco", x=dt, steps=d["steps"], cpu_s=d["cpu_s"], err=errors(c, ref_mj),
                                err_other=errors(c, ref_bd)))
        mj_floor_dt = min(cfg["mj_dts"])
        r["chaos"] = chaos_floor(a, n, paths[n], cfg["bd_ref"][0], bd_refs[0],
                                 os.path.join(a.out, "runs", "mj_n%d_dt%s.json" % (n, tag(mj_floor_dt))), mj_floor_dt)
        res[n] = r
    return paths, res


def with_timing(res, times):
    """Replace each point's CPU by the median of its timed rounds, where there are any."""
    for n, r in res.items():
        for code, key in (("blockdyn", "bd"), ("mujoco", "mj")):
            for p in r[key]:
                t = times.get((code, n, p["x"]))
                p["timed"] = bool(t)
                if t:
                    p["cpu_s"], p["cpu_range"] = statistics.median(t), (min(t), max(t))


def fmt_cpu(p):
    s = "%.3g" % p["cpu_s"]
    if p.get("cpu_range") and len(set(p["cpu_range"])) > 1:
        s += " (%.3g–%.3g)" % p["cpu_range"]
    return s if p["timed"] else s + "*"


def table(res, cfg):
    L = []
    for n, r in res.items():
        L.append("\n### N = %d\n" % n)
        b, m = r["bd_ref_check"], r["mj_ref_check"]
        L.append("References: blockdyn rel_tol %g (%d steps, %.3g s CPU) against %g: median %.1e m, max %.1e m, "
                 "mean height %+.1e m; MuJoCo dt %g (%.3g s CPU) against %g: median %.1e, max %.1e, mean height "
                 "%+.1e. The two references apart: median %.1e m, max %.1e m, mean height %+.1e m.\n"
                 % (cfg["bd_ref"][0], r["bd_ref"]["steps"], r["bd_ref"]["user_s"], cfg["bd_ref"][1], b["median"],
                    b["max"], b["dz"], cfg["mj_ref"][0], r["mj_ref_cpu"], cfg["mj_ref"][1], m["median"], m["max"],
                    m["dz"], r["models_apart"]["median"], r["models_apart"]["max"], r["models_apart"]["dz"]))
        c = r["chaos"]
        L.append("Chaos floor (sphere 0 started %g m away along x): blockdyn at rel_tol %g moves by median %.1e m, "
                 "max %.1e m, mean height %+.1e m; MuJoCo at dt %g by median %.1e m, max %.1e m, mean height %+.1e m.\n"
                 % (NUDGE, cfg["bd_ref"][0], c["bd"]["median"], c["bd"]["max"], c["bd"]["dz"], c["mj_dt"],
                    c["mj"]["median"], c["mj"]["max"], c["mj"]["dz"]))
        L.append("| code | setting | median (m) | max (m) | mean height (m) | median vs other's ref (m) | steps "
                 "(rejected) | f evals | g evals | crossings | CPU s |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for p in r["bd"]:
            e = p["err"]
            L.append("| blockdyn | rel_tol %g | %.1e | %.1e | %+.1e | %.1e | %d (%d) | %d | %s | %d | %s |"
                     % (p["x"], e["median"], e["max"], e["dz"], p["err_other"]["median"], p["steps"], p["rejected"],
                        p["f_evals"], p.get("g_evals", "–"), p["crossings"], fmt_cpu(p)))
        for p in r["mj"]:
            e = p["err"]
            L.append("| MuJoCo | dt %g | %.1e | %.1e | %+.1e | %.1e | %d | – | – | – | %s |"
                     % (p["x"], e["median"], e["max"], e["dz"], p["err_other"]["median"], p["steps"], fmt_cpu(p)))
    L.append("\n### Equal accuracy (each code against its own reference; CPU interpolated log-log)\n")
    L.append("| N | accuracy asked | blockdyn: loosest rel_tol of the tail that meets it | blockdyn CPU | blockdyn "
             "f evals | MuJoCo | MuJoCo CPU | blockdyn / MuJoCo |")
    L.append("|---|---|---|---|---|---|---|---|")
    growth = {}
    for n, r in res.items():
        asks = []
        mj = [p for p in r["mj"] if p["x"] == MJ_EQUAL]
        if mj:
            e = mj[0]["err"]
            asks.append(("median ≤ %.1e m (MuJoCo dt %g's)" % (e["median"], MJ_EQUAL), score_median(e["median"]),
                         "MuJoCo dt %g's median" % MJ_EQUAL, mj[0]))
            asks.append(("median ≤ %.1e m and abs(mean height) ≤ %.1e m (MuJoCo dt %g's)"
                         % (e["median"], abs(e["dz"]), MJ_EQUAL), score_median_height(e), None, mj[0]))
        asks.append(("median ≤ %g m (issue 30)" % TARGET, score_median(TARGET), "median %g m" % TARGET, None))
        for text, score, growth_name, mj_point in asks:
            bc, bx, bh = cost_at(r["bd"], score, "cpu_s")
            bf, _, _ = cost_at(r["bd"], score, "f_evals")
            # MuJoCo at its own dt 1e-4's accuracy is that point (its tail need not meet it: chaos)
            mc, mx, mh = (mj_point["cpu_s"], mj_point["x"], "itself") if mj_point else cost_at(r["mj"], score, "cpu_s")
            L.append("| %d | %s | %s | %s | %s | %s | %s | %s |"
                     % (n, text, "%g" % bx if bx else "none", fmt_cost(bc, bh), fmt_cost(bf, bh, ""),
                        "dt %g" % mx if mx else "none", fmt_cost(mc, mh),
                        fmt_cost(bc / mc, bh, "×") if bc and mc else "–"))
            if growth_name:
                growth.setdefault(growth_name, {})[n] = (bc, mc)
    ns = sorted(res)
    if len(ns) > 1:
        L.append("\n### Growth from N = %d to N = %d at equal accuracy (CPU ∝ N^p)\n" % (ns[0], ns[-1]))
        for name, c in growth.items():
            for k, code in enumerate(("blockdyn", "MuJoCo")):
                a, b = (c.get(ns[0]) or (None, None))[k], (c.get(ns[-1]) or (None, None))[k]
                p = "%.2f" % (math.log(b / a) / math.log(ns[-1] / ns[0])) if a and b else "–"
                L.append("- %s at %s: %s → %s s: p = %s" % (code, name, "%.3g" % a if a else "–",
                                                            "%.3g" % b if b else "–", p))
    for n, r in res.items():
        d = [p for p in r["bd"] if p["x"] == 1e-4]
        if d:
            L.append("- N = %d: blockdyn at its default rel_tol 1e-4: median %.1e m against its reference (%s %g m)"
                     % (n, d[0]["err"]["median"], "within" if d[0]["err"]["median"] <= TARGET else "NOT within",
                        TARGET))
    L.append("\n(* CPU of the untimed accuracy pass; otherwise the median of the timed rounds, range in brackets.)")
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="directory for models, references, runs and tables (created)")
    ap.add_argument("--quick", action="store_true", help="N = 16, three points each, one timed round")
    ap.add_argument("--ns", help="comma-separated N (default 16,64,256)")
    ap.add_argument("--rounds", type=int, help="timed rounds (default 3, --quick 1; 0: none)")
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
    ap.add_argument("--blockdyn", default=os.path.join(target, "release", "blockdyn"))
    ap.add_argument("--event-costs", help="the event_costs example's binary, for the g evaluations "
                    "(cargo build --release --examples: $CARGO_TARGET_DIR/release/examples/event_costs)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="an override for the curve's blockdyn runs (repeatable; not the references), "
                    "e.g. --set pile.onsets=stepped; runs and timings are kept under names tagged with it")
    ap.add_argument("--peer-py", default="/tmp/peervenv/bin/python", help="a Python with mujoco")
    ap.add_argument("--scale", default=os.path.join(REPO, "..", "shared", "bench", "scale"),
                    help="the scale study's scripts (spheres_mujoco.py)")
    a = ap.parse_args()
    cfg = dict(QUICK if a.quick else FULL)
    if a.ns:
        cfg["ns"] = tuple(int(x) for x in a.ns.split(","))
    if a.rounds is not None:
        cfg["rounds"] = a.rounds
    for tool in (a.blockdyn, a.event_costs, a.peer_py):
        if tool and not os.access(tool, os.X_OK):
            sys.exit("%s: not found or not executable (see --help: --blockdyn, --event-costs, --peer-py)" % tool)
    a.out = os.path.abspath(a.out)
    os.makedirs(a.out, exist_ok=True)
    paths, res = measure(a, cfg)
    if cfg["rounds"]:
        print("timed rounds (load now %.1f)" % os.getloadavg()[0], file=sys.stderr)
        timed_rounds(a, cfg, paths)
    with_timing(res, read_timing(a))
    text = table(res, cfg)
    json.dump({str(n): r for n, r in res.items()}, open(os.path.join(a.out, "results%s.json" % sets_tag(a)), "w"),
              indent=1)
    open(os.path.join(a.out, "table%s.md" % sets_tag(a)), "w").write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
