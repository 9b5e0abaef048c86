"""Differential fuzz against ptxas: mutates the driver's filetest modules (a type, a register, an
operand, a modifier, an immediate, a repeated line), runs ptxas 13.5 and ptxforge (-arch=sm_80) on
each, and prints how many give identical stderr and exit status, with the most common first-line
differences (message shapes, names and lines masked). Usage: scripts/diff-fuzz.py [CASES] [SEED];
ptxas from $PTXFORGE_NV (scripts/fetch-nvidia-tools.sh), ptxforge from $PTXFORGE_BIN or
target/release/ptxforge; cases and a list of differences go to $TMPDIR/ptxforge-diff-fuzz."""
import glob, os, random, re, signal, subprocess, sys, collections, tempfile
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
from concurrent.futures import ThreadPoolExecutor
NV = os.environ.get("PTXFORGE_NV", os.path.expanduser("~/.cache/ptxforge/nvidia-13.5.37/nvidia/cu13"))
PTXAS = os.path.join(NV, "bin", "ptxas")
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = os.environ.get("PTXFORGE_BIN", os.path.join(REPO, "target", "release", "ptxforge"))
N = int(sys.argv[1]) if len(sys.argv) > 1 else 300
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
rng = random.Random(seed)
WORK = os.path.join(tempfile.gettempdir(), "ptxforge-diff-fuzz")
srcs = [open(p).read() for p in sorted(glob.glob(os.path.join(REPO, "pipeline/driver/tests/filetests/*.ptx")))]
TYPES = ["u32", "s32", "f32", "b32", "u64", "s64", "f64", "b64", "u16", "f16", "pred", "b8"]
def mutate(src):
    lines = src.split("\n")
    body = [i for i, l in enumerate(lines) if l.startswith("\t") and not l.strip().startswith("//")]
    if not body: return None
    i = rng.choice(body); l = lines[i]
    k = rng.randrange(8)
    if k == 0:   # change a type suffix
        ts = re.findall(r"\.(u32|s32|f32|b32|u64|s64|f64|b64|u16|s16|pred)\b", l)
        if not ts: return None
        l = l.replace("." + rng.choice(ts), "." + rng.choice(TYPES), 1)
    elif k == 1:  # undeclared register
        rs = re.findall(r"%[a-z]+\d+", l)
        if not rs: return None
        l = l.replace(rng.choice(rs), "%zz" + str(rng.randrange(9)), 1)
    elif k == 2:  # drop an operand
        parts = l.split(",")
        if len(parts) < 2: return None
        del parts[rng.randrange(1, len(parts))]; l = ",".join(parts)
        if not l.rstrip().endswith(";"): l += ";"
    elif k == 3:  # add an operand
        l = l.replace(";", ", %r1;", 1)
    elif k == 4:  # swap register kinds
        rs = re.findall(r"%(r|rd|f|fd|p|rs|h)(\d+)", l)
        if not rs: return None
        a = rng.choice(rs); l = l.replace("%" + a[0] + a[1], "%" + rng.choice(["r", "rd", "f", "fd", "p", "rs"]) + a[1], 1)
    elif k == 5:  # immediate in place of a register
        rs = re.findall(r"%[a-z]+\d+", l)
        if not rs: return None
        l = l.replace(rng.choice(rs), rng.choice(["1", "0f3F800000", "-4", "0x10"]), 1)
    elif k == 6:  # drop or add a modifier
        ms = re.findall(r"\.[a-z][a-z0-9]*", l.split()[0] if l.split() else "")
        if not ms: return None
        op = l.split()[0]
        if rng.random() < 0.5: newop = op.replace(rng.choice(ms), "", 1)
        else: newop = op + rng.choice([".rn", ".ftz", ".sat", ".wide", ".lo", ".hi", ".v2", ".global", ".shared", ".cc", ".approx"])
        l = l.replace(op, newop, 1)
    else:  # duplicate a line elsewhere
        j = rng.choice(body); lines.insert(j, l); return "\n".join(lines)
    lines[i] = l
    return "\n".join(lines)
def run(tool, path):
    out = subprocess.run([tool, "-arch=sm_80", path, "-o", path + "." + os.path.basename(tool) + ".cubin"], capture_output=True, text=True, timeout=60)
    return out.returncode, out.stderr.replace(path, "F")
os.makedirs(WORK, exist_ok=True)
cases = []
while len(cases) < N:
    m = mutate(rng.choice(srcs))
    if m: cases.append(m)
def check(k):
    p = os.path.join(WORK, f"{seed}_{k}.ptx"); open(p, "w").write(cases[k])
    a = run(PTXAS, p); b = run(OURS, p)
    return k, p, a, b
diff_first, diff_full, same = [], 0, 0
with ThreadPoolExecutor(2) as ex:
    for k, p, a, b in ex.map(check, range(N)):
        if a == b: same += 1; continue
        fa = a[1].split("\n")[0]; fb = b[1].split("\n")[0]
        if (a[0] == 0) != (b[0] == 0) or fa != fb:
            diff_first.append((p, fa, fb))
        else:
            diff_full += 1
print(f"{N} cases: {same} identical, {diff_full} same verdict and first line but differ later, {len(diff_first)} differ in verdict or first line")
norm = lambda s: re.sub(r"'[^']*'", "'X'", re.sub(r"line \d+", "line N", s))
c = collections.Counter((norm(a), norm(b)) for _, a, b in diff_first)
for (a, b), n in c.most_common(25):
    print(n, "| ptxas:", a, "| ours:", b)
with open(os.path.join(WORK, f"diffs_{seed}.txt"), "w") as f:
    for p, a, b in diff_first: f.write(f"{p}\n  ptxas: {a}\n  ours:  {b}\n")
