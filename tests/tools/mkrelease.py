#!/usr/bin/env python3
"""Packs a release tarball by hand, for tests that need what `tb323fu-ctl mesa pack` would
refuse to make (hostile MANIFEST values, conflicting entries) from real files; hostile-release.py
makes the small one-rule cases.

usage: mkrelease.py OUTDIR VERSION STAGE [MANIFEST-LINE…]

STAGE holds lib/… and share/… (regular files and symbolic links). The MANIFEST gets format,
version, arch (this machine's), drivers=opencl with opencl_lib=lib/libRusticlOpenCL.so.1 and
rusticl_enable=llvmpipe, then the extra lines in order (a later key wins), then a file or link
line for every entry of STAGE. An extra line "link PATH TARGET" also adds that link to the
archive. Writes OUTDIR/tb323fu-mesa-VERSION-ARCH.tar.gz and OUTDIR/SHA256SUMS and prints the
tarball's path.
"""
import hashlib
import io
import os
import platform
import sys
import tarfile


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    out, version, stage = sys.argv[1:4]
    extra = sys.argv[4:]
    lines = ["format=1", "version=" + version, "arch=" + platform.machine(),
             "drivers=opencl", "opencl_lib=lib/libRusticlOpenCL.so.1", "rusticl_enable=llvmpipe"]
    lines += extra
    entries = []
    for top in ("lib", "share"):
        for root, dirs, files in os.walk(os.path.join(stage, top)):
            dirs.sort()
            for name in sorted(files + [d for d in dirs if os.path.islink(os.path.join(root, d))]):
                full = os.path.join(root, name)
                rel = os.path.relpath(full, stage)
                if os.path.islink(full):
                    lines.append("link %s %s" % (rel, os.readlink(full)))
                    entries.append((rel, None, os.readlink(full)))
                else:
                    data = open(full, "rb").read()
                    mode = os.stat(full).st_mode & 0o777
                    lines.append("file %s %o %d %s" % (hashlib.sha256(data).hexdigest(), mode,
                                                       len(data), rel))
                    entries.append((rel, data, mode))
    for line in extra:
        if line.startswith("link "):
            _, path, target = line.split(" ", 2)
            entries.append((path, None, target))
    # surrogateescape: a MANIFEST-LINE given as bytes that are not UTF-8 stays those bytes
    manifest = ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")
    os.makedirs(out, exist_ok=True)
    name = "tb323fu-mesa-%s-%s.tar.gz" % (version, platform.machine())
    path = os.path.join(out, name)
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        info = tarfile.TarInfo("MANIFEST")
        info.size = len(manifest)
        info.mode = 0o644
        tar.addfile(info, io.BytesIO(manifest))
        for rel, data, extra_arg in entries:
            info = tarfile.TarInfo("tree/" + rel)
            if data is None:
                info.type = tarfile.SYMTYPE
                info.linkname = extra_arg
                tar.addfile(info)
            else:
                info.size = len(data)
                info.mode = extra_arg
                tar.addfile(info, io.BytesIO(data))
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    with open(os.path.join(out, "SHA256SUMS"), "w") as f:
        f.write("%s  %s\n" % (digest, name))
    print(path)


if __name__ == "__main__":
    main()
