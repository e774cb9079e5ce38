"""The PEP 517 backend of `pip install ./python`: CMake builds sluice._sluice from this clone (the CUDA kernels
where nvcc is found, unless SLUICE_ENABLE_CUDA=OFF), and the wheel is packed here, from the standard library
alone, so that no package index is needed.

Environment: SLUICE_ENABLE_CUDA=ON|OFF; SLUICE_CMAKE_ARGS (more CMake options, split as a shell would);
SLUICE_BUILD_DIR (a build folder to build in and keep; one configured before, e.g. by scripts/test.sh, keeps its
options and only gains the Python module); SLUICE_JOBS (parallel compile jobs; default: the cores)."""

import base64
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parent.parent
ROOT = PYTHON_DIR.parent
SUMMARY = "Reduction, scan, stream compaction, partition and radix sort on NVIDIA GPUs and multicore CPUs"


def _version():
    m = re.search(r"project\(sluice VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    if not m:
        raise RuntimeError(f"sluice: no project version in {ROOT / 'CMakeLists.txt'}")
    return m.group(1)


def _say(*words):
    print("sluice build:", *words, file=sys.stderr, flush=True)


def _environment():
    """The caller's environment without pip's build isolation (PYTHONPATH to an overlay that hides site-packages):
    CMake looks there for pybind11 and DLPack's header, in the environment the module is built for."""
    env = dict(os.environ)
    for name in ("PYTHONPATH", "PYTHONNOUSERSITE"):
        env.pop(name, None)
    return env


def _run(cmd):
    _say(" ".join(shlex.quote(str(c)) for c in cmd))
    subprocess.run([str(c) for c in cmd], check=True, env=_environment())


def _tool(name):
    """A working `name` (cmake, ninja, make): the first on PATH that runs. pip's build isolation hides the
    site-packages of the cmake and ninja Python packages, whose PATH entries are scripts that import them: their
    programs are then taken from beside those scripts' environment."""
    candidates = []
    for d in os.environ.get("PATH", "").split(os.pathsep):
        c = Path(d or ".") / name
        if c.is_file() and os.access(c, os.X_OK):
            candidates.append(c)
            candidates += sorted(c.resolve().parent.parent.glob(f"lib/python3*/site-packages/{name}/data/bin/{name}"))
    for c in candidates:
        try:
            if subprocess.run([str(c), "--version"], capture_output=True, timeout=60).returncode == 0:
                return str(c)
        except (OSError, subprocess.SubprocessError):
            pass
    return None


def _build_module():
    """The build folder holding python/sluice/ with the compiled module."""
    if not (ROOT / "CMakeLists.txt").exists() or not (ROOT / "include" / "sluice").is_dir():
        raise RuntimeError(f"sluice: {PYTHON_DIR} is not inside a clone of sluice; run `pip install ./python` "
                           "from the clone (pip 21.3 or later builds in place)")
    env_path = os.environ.get("PATH", "")
    if not shutil.which("nvcc") and os.access("/usr/local/cuda/bin/nvcc", os.X_OK):
        os.environ["PATH"] = "/usr/local/cuda/bin" + os.pathsep + env_path  # where CUDA installs it
    cmake = _tool("cmake")
    if not cmake:
        raise RuntimeError("sluice: CMake 3.25 or later is needed to build the module (Debian: apt-get install cmake)")
    kept = os.environ.get("SLUICE_BUILD_DIR")
    # pip runs this in python/: a relative folder is taken from where pip was started (the shell's PWD).
    build = (Path(os.environ.get("PWD", ".")) / kept).resolve() if kept else Path(tempfile.mkdtemp(prefix="sluice-build-"))
    options = [f"-DPython_EXECUTABLE={sys.executable}", "-DSLUICE_BUILD_PYTHON=ON"]
    if not (build / "CMakeCache.txt").exists():  # a new folder: only what the module needs
        if not _tool("make") and _tool("ninja"):
            options += ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={_tool('ninja')}"]
        options += ["-DCMAKE_BUILD_TYPE=Release", "-DSLUICE_BUILD_TESTS=OFF", "-DSLUICE_BUILD_TOOLS=OFF",
                    "-DSLUICE_BUILD_BENCHMARKS=OFF", "-DSLUICE_ENABLE_GL=OFF", "-DSLUICE_STATIC_CUDART=ON"]
    cuda = os.environ.get("SLUICE_ENABLE_CUDA")
    if cuda is not None:
        options.append(f"-DSLUICE_ENABLE_CUDA={cuda}")
    options += shlex.split(os.environ.get("SLUICE_CMAKE_ARGS", ""))
    _run([cmake, "-S", ROOT, "-B", build, *options])
    jobs = os.environ.get("SLUICE_JOBS") or str(os.cpu_count() or 1)
    _run([cmake, "--build", build, "--target", "_sluice", "-j", jobs])
    return build, not kept


def _tag():
    v = sys.version_info
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"cp{v.major}{v.minor}-cp{v.major}{v.minor}-{platform}"


def _metadata(version):
    return (f"Metadata-Version: 2.1\nName: sluice\nVersion: {version}\nSummary: {SUMMARY}\n"
            "License: Apache-2.0\nRequires-Python: >=3.8\nRequires-Dist: numpy\n")


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    version = _version()
    info = Path(metadata_directory) / f"sluice-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata(version))
    return info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    build, temporary = _build_module()
    package = build / "python" / "sluice"
    files = sorted(p for p in package.iterdir() if p.suffix == ".py" or (p.name.startswith("_sluice.") and p.suffix == ".so"))
    if not any(p.suffix == ".so" for p in files):
        raise RuntimeError(f"sluice: the build made no module in {package}")
    tag = _tag()
    info = f"sluice-{version}.dist-info"
    entries = [(f"sluice/{p.name}", p.read_bytes()) for p in files]
    entries += [(f"{info}/METADATA", _metadata(version).encode()),
                (f"{info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: sluice_build\nRoot-Is-Purelib: false\nTag: {tag}\n".encode()),
                (f"{info}/LICENSE", (ROOT / "LICENSE").read_bytes())]
    record = ""
    for name, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record += f"{name},sha256={digest},{len(data)}\n"
    record += f"{info}/RECORD,,\n"
    wheel = f"sluice-{version}-{tag}.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
        z.writestr(f"{info}/RECORD", record)
    if temporary:
        shutil.rmtree(build, ignore_errors=True)
    _say("wrote", wheel)
    return wheel
