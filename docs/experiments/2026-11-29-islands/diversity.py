"""Per-gene spread of a run's population over its generations (log.jsonl's gene_std), and how
often the champion's slot changed: the mean over genes of the population's std at chosen
generations, for runs compared at equal generations."""
import json
import sys

GENS = [0, 100, 250, 500, 1000, 1500, 2000, 2091, 3000, 4000, 4533]


def main(paths: list[str]) -> None:
    print("| run | " + " | ".join(str(g) for g in GENS) + " |")
    print("|---|" + "---|" * len(GENS))
    for path in paths:
        rows = {}
        with open(path) as f:
            for line in f:
                d = json.loads(line)
                if d["generation"] in GENS:
                    s = d["gene_std"]
                    rows[d["generation"]] = sum(s.values()) / len(s)
        print(f"| {path} | " + " | ".join(f"{rows[g]:.3f}" if g in rows else "" for g in GENS)
              + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
