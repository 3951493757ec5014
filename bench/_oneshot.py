"""One-shot process for bench/peers.py: load a saved ODD, enumerate one instance's
PI-explanations, print their number (what a user's script would do).

Usage: python bench/_oneshot.py FILE.bnx "F1=s1,F2=s2,..."
"""

import sys

import bnx

odd = bnx.ODD.load(sys.argv[1])
instance = dict(pair.split("=", 1) for pair in sys.argv[2].split(","))
print(sum(1 for _ in bnx.pi_explanations(odd, instance)))
