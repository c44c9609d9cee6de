"""Stiff box_slide in Drake's continuous-time MultibodyPlant (issue 11).

Adapted (our own code) from ../shared/bench/peers/box_slide_drake.py, with the
constants of ../shared/bench/peers/box_slide_problem.py and the timing helpers
of ../shared/bench/peers/peers_common.py copied in, so that this file stands
alone.  Changes from the shared script: the per-corner stiffness k and linear
damping c are options (default MathWorks' typical k = 8e7 N/m, c = 4e6 N*s/m),
the integrator's Jacobian/Newton counters are reported, and --reference runs
one untimed configuration (for the model's converged answer).

The problem is the peers' box_slide: a 1 kg cube, 0.2 m side, on a 30 degree
slope (gravity tilted 30 degrees, x down the slope), touching a HalfSpace at its
8 corners (spheres of radius 1 mm, bottoms flush with the faces), point
contact, mu_s = 0.5, mu_d = 0.3, Drake's Stribeck regularisation with stiction
tolerance 1e-4 m/s, 1 s, starting level at rest at the static penetration
delta_s = m g cos30 / (4 k).  Hunt-Crossley F = k x (1 + D xdot) with
D = c / (k delta_s), so that its damping at the static load equals the linear
damper c (as the shared script does); each geometry gets stiffness 2k, so the
pair's combined stiffness is k.  blockdyn's model of the same law is
hunt_crossley with exponents 1, 1, 1 and damping b = k D = c / delta_s
(benches/stiff.rs, group stiff_box_slide).

Run with the peers' venv (bash ../shared/bench/peers/setup_venv.sh once):
  ~/.cache/peers/venv/bin/python benches/peers/box_slide_stiff_drake.py \
      --schemes implicit_euler,radau3 --accuracies 1e-3,1e-4,1e-6
One JSON line per configuration: median wall time of 5 runs after one warm-up
(--repeats, --warmup),
steps, derivative evaluations, Jacobians, x(1 s), 1-minute load average.
"""
import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from pydrake.all import (  # noqa: E402
    AddContactMaterial,
    AddMultibodyPlantSceneGraph,
    ApplySimulatorConfig,
    CoulombFriction,
    DiagramBuilder,
    HalfSpace,
    ProximityProperties,
    RigidTransform,
    Simulator,
    SimulatorConfig,
    SpatialInertia,
    Sphere,
)
from pydrake.multibody.plant import ContactModel  # noqa: E402

M = 1.0
H = 0.1  # half side
G = 9.81
THETA = math.radians(30.0)
GRAVITY = (G * math.sin(THETA), 0.0, -G * math.cos(THETA))
MU_S = 0.5
MU_D = 0.3
VS = 1e-4
T_END = 1.0
R_CORNER = 1e-3
X_RIGID = 0.5 * G * (math.sin(THETA) - MU_D * math.cos(THETA)) * T_END ** 2


def version_of(dist):
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:  # pragma: no cover
        return "unknown"


def bench(fn, repeats, warmup=1):
    """Median wall time and median CPU time of `repeats` runs after `warmup` runs."""
    out = None
    for _ in range(warmup):
        out = fn()
    times, cpu = [], []
    for _ in range(repeats):
        c0 = time.process_time()
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    if not times:
        return None, [], None, out
    return statistics.median(times), times, statistics.median(cpu), out


def emit(record):
    record = dict(record)
    record["loadavg1"] = os.getloadavg()[0]

    def clean(v):
        if isinstance(v, float):
            return float(f"{v:.10g}")
        if isinstance(v, (list, tuple)):
            return [clean(x) for x in v]
        return v

    print(json.dumps({k: clean(v) for k, v in record.items()}))
    sys.stdout.flush()


def build(k, d_hc):
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, time_step=0.0)
    box = plant.AddRigidBody("box", SpatialInertia.SolidBoxWithMass(M, 2 * H, 2 * H, 2 * H))

    def props():
        p = ProximityProperties()
        AddContactMaterial(dissipation=d_hc, point_stiffness=2.0 * k,
                           friction=CoulombFriction(MU_S, MU_D), properties=p)
        return p

    i = 0
    for sx in (-1, 1):
        for sy in (-1, 1):
            for sz in (-1, 1):
                p_BS = [sx * H, sy * H, sz * (H - R_CORNER)]
                plant.RegisterCollisionGeometry(box, RigidTransform(p_BS), Sphere(R_CORNER),
                                                f"corner{i}", props())
                i += 1
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                    "ground", props())
    plant.set_contact_model(ContactModel.kPoint)
    plant.set_stiction_tolerance(VS)
    plant.mutable_gravity_field().set_gravity_vector(list(GRAVITY))
    plant.Finalize()
    return builder.Build(), plant, box


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schemes", default="implicit_euler,radau3")
    ap.add_argument("--accuracies", default="1e-3,1e-4,1e-6")
    ap.add_argument("--k", type=float, default=8e7, help="per-corner stiffness, N/m")
    ap.add_argument("--c", type=float, default=4e6,
                    help="per-corner linear damping at the static load, N*s/m")
    ap.add_argument("--max-step", type=float, default=0.1)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--reference", action="store_true",
                    help="one untimed run per configuration (no warm-up, no repeats)")
    a = ap.parse_args()
    delta_s = M * G * math.cos(THETA) / (4.0 * a.k)
    d_hc = a.c / (a.k * delta_s)
    diagram, plant, box = build(a.k, d_hc)
    for scheme in a.schemes.split(","):
        for acc in map(float, a.accuracies.split(",")):
            stats = {}

            def run():
                sim = Simulator(diagram)
                ApplySimulatorConfig(SimulatorConfig(
                    integration_scheme=scheme, accuracy=acc, max_step_size=a.max_step,
                    use_error_control=True, target_realtime_rate=0.0,
                    publish_every_time_step=False), sim)
                pctx = plant.GetMyMutableContextFromRoot(sim.get_mutable_context())
                plant.SetFreeBodyPose(pctx, box, RigidTransform([0.0, 0.0, H - delta_s]))
                x0 = plant.GetPositions(pctx)[4]
                sim.Initialize()
                sim.AdvanceTo(T_END)
                integ = sim.get_integrator()
                stats["steps"] = integ.get_num_steps_taken()
                stats["nfev"] = integ.get_num_derivative_evaluations()
                stats["rejected"] = integ.get_num_step_shrinkages_from_error_control()
                stats["smallest_step"] = integ.get_smallest_adapted_step_size_taken()
                for name in ("get_num_jacobian_evaluations",
                             "get_num_derivative_evaluations_for_jacobian",
                             "get_num_newton_raphson_iterations",
                             "get_num_iteration_matrix_factorizations",
                             "get_num_step_shrinkages_from_substep_failures"):
                    if hasattr(integ, name):
                        stats[name[len("get_num_"):]] = getattr(integ, name)()
                q = plant.GetPositions(pctx)
                return q[4] - x0, q[5], q[6]

            if a.reference:
                wall, times, cpu, (x, y, z) = bench(run, repeats=0)
            else:
                wall, times, cpu, (x, y, z) = bench(run, repeats=a.repeats, warmup=a.warmup)
            emit({
                "problem": "box_slide_stiff", "peer": "drake MultibodyPlant continuous",
                "version": version_of("drake"),
                "config": f"{scheme} accuracy={acc:g} 8 corner spheres, point contact HC "
                          f"k={a.k:g} d={d_hc:.6g} (c={a.c:g} at delta_s={delta_s:.6g}), "
                          f"Stribeck vs={VS:g}",
                "scheme": scheme, "accuracy": acc,
                "wall_s": wall, "wall_all_s": times, "cpu_s": cpu,
                **stats,
                "x_final": x, "x_rigid": X_RIGID, "y_final": y, "z_final": z,
            })


if __name__ == "__main__":
    main()
