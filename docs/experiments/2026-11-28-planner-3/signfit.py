"""The value fitted with and without the signs the game fixes (a weight whose sign is wrong
is held at 0 and the rest refitted), on the same positions; each checked at the margins in the
same seeded games against 3x each gauntlet bot; the best of each written.
usage: signfit.py BOT FIT_SEED CHECK_GAMES CHECK_SEED OUT_PREFIX"""
import sys, json, numpy as np
from evolve.planfit import positions, fit_logistic, rates
from features.search.player import PlanSettings, read_bot
from features.search.value import NAMES, TERMS
from features.genome import save_genome
SIGNS = {"income": 1, "rival_income": -1, "armies": 1, "card": 1, "hand": 1, "exposure": -1,
         "continent_exposure": -1, "bonus": 1, "rivals": -1, "thin": -1}
f, fs, cg, cs, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
w, meta, _ = read_bot(f)
x, y = positions(w, 3000, fs, "attack")
keep = [i for i, t in enumerate(TERMS) if t.name != "won"]
x = x[:, keep]
names = [TERMS[i].name for i in keep]
def signed_fit(x, y):
    free = np.ones(x.shape[1], bool)
    while True:
        b = np.zeros(x.shape[1] + 1)
        b[np.r_[True, free]] = fit_logistic(x[:, free], y)
        bad = [j for j, n in enumerate(names) if SIGNS.get(n, 0) * b[1 + j] < 0]
        if not bad:
            return b
        free[bad] = False
fits = {"unsigned": fit_logistic(x, y), "signed": signed_fit(x, y)}
greedy = np.mean(list(rates(w, None, cg, cs).values()))
print(f"{f} greedy {greedy:.3f}", flush=True)
for label, b in fits.items():
    print(label, " ".join(f"{n}={b[1 + j]:.2f}" for j, n in enumerate(names)), flush=True)
    best = None
    for m in (0.1, 0.2, 0.4):
        d = PlanSettings(margin=m).as_dict()
        d["value"].update({f"value.{n}": float(b[1 + j]) for j, n in enumerate(names)})
        s = PlanSettings.from_dict(d)
        r = float(np.mean(list(rates(w, s.vector(), cg, cs).values())))
        print(f"  {label} margin {m}: {r:.3f}", flush=True)
        if best is None or r > best[0]:
            best = (r, s)
    save_genome(f"{out}-{label}.json", w, dict(meta, signfit={"fit_seed": fs, "label": label}), plan=best[1].as_dict())
