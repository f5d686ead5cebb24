#!/usr/bin/env python3
"""Writes a small release that breaks exactly one rule of the release format, with a
SHA256SUMS that matches the tarball, so that only the rule under test can refuse it.

usage: hostile-release.py CASE OUTDIR [VERSION]   (CASE "good" makes a valid one)
"""
import gzip
import hashlib
import io
import os
import platform
import sys
import tarfile

case, outdir = sys.argv[1], sys.argv[2]
version = sys.argv[3] if len(sys.argv) > 3 else "2026.1.1"
arch = platform.machine()

files = {  # path -> (content, mode)
    "lib/libdemo.so.1": (b"not really a library, but listed and hashed\n" * 50, 0o644),
    "share/demo/README": (b"demo release\n", 0o644),
}
links = {"lib/libdemo.so": "libdemo.so.1"}


def manifest(files, links, **over):
    head = {"format": "1", "version": version, "arch": arch, "drivers": "none",
            "commit": "0123456789abcdef0123456789abcdef01234567", "base": "upstream"}
    head.update(over)
    lines = [f"{k}={v}" for k, v in head.items()]
    for p, (data, mode) in sorted(files.items()):
        lines.append(f"file {hashlib.sha256(data).hexdigest()} {mode:o} {len(data)} {p}")
    for p, t in sorted(links.items()):
        lines.append(f"link {p} {t}")
    return ("\n".join(lines) + "\n").encode()


def add(tar, name, data=b"", mode=0o644, kind=tarfile.REGTYPE, linkname="", devmajor=0):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = mode
    info.linkname = linkname
    if kind == tarfile.REGTYPE:
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    else:
        info.devmajor = devmajor
        tar.addfile(info)


listed_files, listed_links, man_over = dict(files), dict(links), {}
entries = []  # (name, data, mode, kind, linkname)
for p, (data, mode) in files.items():
    entries.append(("tree/" + p, data, mode, tarfile.REGTYPE, ""))
for p, t in links.items():
    entries.append(("tree/" + p, b"", 0o777, tarfile.SYMTYPE, t))

bomb = None
if case == "good":
    pass
elif case == "dotdot":
    entries.append(("tree/lib/../../../evil-dotdot", b"x", 0o644, tarfile.REGTYPE, ""))
elif case == "absolute":
    entries.append(("/tmp/evil-absolute", b"x", 0o644, tarfile.REGTYPE, ""))
elif case == "symlink-out":
    entries.append(("tree/lib/evil-link", b"", 0o777, tarfile.SYMTYPE, "../../../../../etc/passwd"))
elif case == "hardlink":
    entries.append(("tree/lib/evil-hard", b"", 0o644, tarfile.LNKTYPE, "tree/lib/libdemo.so.1"))
elif case == "device":
    entries.append(("tree/lib/evil-dev", b"", 0o644, tarfile.CHRTYPE, ""))
elif case == "fifo":
    entries.append(("tree/lib/evil-fifo", b"", 0o644, tarfile.FIFOTYPE, ""))
elif case == "setuid":
    entries[0] = (entries[0][0], entries[0][1], 0o4755, tarfile.REGTYPE, "")
    listed_files["lib/libdemo.so.1"] = (files["lib/libdemo.so.1"][0], 0o755)
elif case == "duplicate":
    entries.append(entries[0])
elif case == "unlisted":
    entries.append(("tree/lib/evil-extra", b"extra", 0o644, tarfile.REGTYPE, ""))
elif case == "missing":
    listed_files["lib/libmissing.so"] = (b"gone", 0o644)
elif case == "size":
    data, mode = files["share/demo/README"]
    entries = [e if e[0] != "tree/share/demo/README" else (e[0], data + b"!", mode, e[3], e[4]) for e in entries]
    # same hash line as the original but the archive has one byte more
elif case == "hash":
    data, mode = files["share/demo/README"]
    entries = [e if e[0] != "tree/share/demo/README" else (e[0], b"DEMO RELEASE\n", mode, e[3], e[4]) for e in entries]
elif case == "mode":
    entries[0] = (entries[0][0], entries[0][1], 0o755, tarfile.REGTYPE, "")
elif case == "arch":
    man_over["arch"] = "aarch64" if arch != "aarch64" else "x86_64"
elif case == "version-slash":
    man_over["version"] = "2026/10/06"
elif case == "no-manifest":
    pass
elif case == "bomb":
    bomb = 200 * 1024 * 1024  # zeros: gzip packs them about 1000:1
else:
    sys.exit(f"unknown case {case}")

name = f"tb323fu-mesa-{version}-{man_over.get('arch', arch)}.tar.gz"
os.makedirs(outdir, exist_ok=True)
path = os.path.join(outdir, name)
with open(path, "wb") as raw:
    with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=9) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
            if bomb:
                zeros_sha = hashlib.sha256()
                chunk = b"\0" * (1 << 20)
                for _ in range(bomb >> 20):
                    zeros_sha.update(chunk)
                m = manifest(listed_files, listed_links, **man_over).decode()
                m += f"file {zeros_sha.hexdigest()} 644 {bomb} share/demo/zeros\n"
                add(tar, "MANIFEST", m.encode())
                info = tarfile.TarInfo("tree/share/demo/zeros")
                info.size = bomb

                class Zeros(io.RawIOBase):
                    left = bomb

                    def readinto(self, b):
                        n = min(len(b), self.left)
                        b[:n] = b"\0" * n
                        self.left -= n
                        return n
                tar.addfile(info, Zeros())
            elif case != "no-manifest":
                add(tar, "MANIFEST", manifest(listed_files, listed_links, **man_over))
            for n, data, mode, kind, linkname in entries:
                add(tar, n, data, mode, kind, linkname)

with open(path, "rb") as f:
    digest = hashlib.sha256(f.read()).hexdigest()
with open(os.path.join(outdir, "SHA256SUMS"), "w") as f:
    f.write(f"{digest}  {name}\n")
print(path)
