"""main's cycles in two lwp-report JSON files and their ratio (issue 30).

  main_ratio.py ALL.json ALONE.json MIN MAX

Prints "main: A packets with everything instrumented, B alone, ratio R"
and "invariance ok" when MIN <= R <= MAX, else "invariance FAILED".
"""
import json
import sys


def main_cycles(path):
    for row in json.load(open(path))["regions"]:
        if row.get("kind") == "function" and row.get("function") == "main":
            return row["cycles"]
    sys.exit("main_ratio.py: no main in " + path)


a, b = main_cycles(sys.argv[1]), main_cycles(sys.argv[2])
lo, hi = float(sys.argv[3]), float(sys.argv[4])
ratio = a / b
print("main: %d packets with everything instrumented, %d alone, ratio %.3f"
      % (a, b, ratio))
print("invariance ok" if lo <= ratio <= hi else "invariance FAILED")
