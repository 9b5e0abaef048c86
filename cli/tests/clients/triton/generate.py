#!/usr/bin/env python3
"""Regenerates the kept Triton PTX in this folder: compiles every kernel NAME.py here with Triton
(no GPU, no torch: triton.compile with an explicit GPUTarget) for sm_80 and sm_90 (Triton asks
ptxas for sm_90a there) with ptxforge as Triton's ptxas, through a wrapper that keeps the PTX and the
command line Triton passed. Writes NAME.sm_80.ptx / NAME.sm_90a.ptx, command_line.txt and
triton_results.txt (what Triton saw: ok, or ptxforge's first error line).

usage: generate.py PTXFORGE_BINARY [OUT_DIR]   (run inside a venv with the triton wheel installed;
       OUT_DIR, default this folder, takes the files: the live client test writes to a scratch one)
"""
import importlib.util
import os
import re
import pathlib
import shutil
import stat
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
TARGETS = [(80, "sm_80"), (90, "sm_90a")]


def wrapper(ptxforge, capture):
    """A ptxas stand-in that keeps the .ptx and arguments it is given, then runs ptxforge."""
    path = capture / "ptxas"
    path.write_text(
        "#!/bin/sh\n"
        f'for a in "$@"; do case "$a" in *.ptx) cp "$a" "{capture}/last.ptx";; esac; done\n'
        f'printf "%s\\n" "$*" > "{capture}/last.args"\n'
        f'exec "{ptxforge}" "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    ptxforge = pathlib.Path(sys.argv[1]).resolve()
    out = pathlib.Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else HERE
    out.mkdir(parents=True, exist_ok=True)
    capture = pathlib.Path(tempfile.mkdtemp(prefix="triton-capture-"))
    ptxas = wrapper(ptxforge, capture)
    os.environ["TRITON_PTXAS_PATH"] = str(ptxas)
    os.environ["TRITON_PTXAS_BLACKWELL_PATH"] = str(ptxas)
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    os.environ["TRITON_CACHE_DIR"] = str(capture / "cache")
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia import compiler as nv

    results = []
    command_lines = []
    for source in sorted(HERE.glob("*.py")):
        if source.name == "generate.py":
            continue
        module = load(source)
        for cc, sm in TARGETS:
            assert nv.get_ptxas(cc).path == str(ptxas), "Triton fell back to its own ptxas"
            (capture / "last.ptx").unlink(missing_ok=True)
            src = triton.compiler.ASTSource(module.KERNEL, module.SIGNATURE, module.CONSTEXPRS)
            try:
                triton.compile(src, target=GPUTarget("cuda", cc, 32))
                verdict = "ok"
            except Exception as e:  # PTXASError carries ptxforge's stderr
                lines = [l for l in str(e).splitlines() if "error" in l and "ptxas" in l and "failed with" not in l]
                verdict = lines[0].strip() if lines else type(e).__name__ + ": " + str(e).splitlines()[0]
            if (capture / "last.ptx").exists():
                shutil.copy(capture / "last.ptx", out / f"{source.stem}.{sm}.ptx")
                args = (capture / "last.args").read_text().strip().split()
                command_lines.append(" ".join(a if not a.endswith((".ptx", ".o")) else "FILE" for a in args))
            else:
                verdict = "no PTX reached ptxas: " + verdict
            verdict = re.sub(r"/tmp/[\w.-]+[.]ptx", "FILE", verdict)
            results.append(f"{source.stem}\t{sm}\t{verdict}")
            print(results[-1], flush=True)
    (out / "triton_results.txt").write_text(
        f"# Triton {triton.__version__} with ptxforge as its ptxas (generate.py)\n" + "\n".join(results) + "\n")
    (out / "command_line.txt").write_text("\n".join(sorted(set(command_lines))) + "\n")


if __name__ == "__main__":
    main()
