#!/usr/bin/env python3
"""Would the Open Device Helper's Mesa channel, as its source is written today, take this
release? Our own reading of its rules (docs/design.md §13), applied to a release directory
made by `tb323fu-ctl mesa pack` (the tarball and SHA256SUMS):

- the tarball is named tb323fu-mesa-<version>-<ARCH>.tar.gz, an asset name of at most 96
  characters of [A-Za-z0-9._-] not starting with '.', at most 256 MiB; the version has at most
  40 characters, a digit first, then [A-Za-z0-9.+-];
- SHA256SUMS lines are "<hex> <name>" (spaces, optional '*'); the tarball's SHA-256 is there;
- the gzip stream unpacks to at most 768 MiB; every tar header has a valid checksum and the
  "ustar" magic; names (prefix/name, without "./") are plain components of [A-Za-z0-9._@+-];
  entries are regular files or directories only (a link, a pax or GNU long-name header is an
  error); at most 64 regular files;
- MANIFEST (at most 16 KiB of UTF-8): lines are "key=value" (a key without a space) or exactly
  "file <sha256> <644|755> <size> <path>" with path lib/… or share/…, at most 200 bytes, no
  repeats; format=1 and version= are required; arch equals ARCH; drivers is not empty, and
  vulkan needs lib/libvulkan_freedreno.so, opencl lib/libRusticlOpenCL.so.1 among the files;
- the MANIFEST's version is the release's; every file under tree/ is listed with its size and
  SHA-256, and every listed file is there.

What it then selects: its ICD files and env.conf name Vulkan (VK_DRIVER_FILES) and OpenCL
(OCL_ICD_VENDORS, RUSTICL_ENABLE) for the drivers the MANIFEST names; any other word of
drivers (gl) is kept and selects nothing, and the files of lib/gl/ are unpacked with the rest.

usage: helper_channel_check.py RELEASE_DIR [--arch ARCH]   (ARCH: aarch64 unless given)
Exit 0 and "accepted; it selects D" (D: the drivers it selects, comma-separated, then
"; unpacked, not selected: W" for the words it keeps unused) when it would take it; exit 1
and the first refusal otherwise.
"""
import gzip
import hashlib
import os
import re
import sys

MAX_TARBALL = 256 << 20
MAX_TREE = 768 << 20
MAX_FILES = 64
MAX_MANIFEST = 16 << 10
VULKAN_LIB = "lib/libvulkan_freedreno.so"
OPENCL_LIB = "lib/libRusticlOpenCL.so.1"


class Refused(Exception):
    pass


def safe_version(v):
    return 0 < len(v) <= 40 and v[0].isdigit() and re.fullmatch(r"[A-Za-z0-9.+-]+", v) is not None


def safe_asset_name(n):
    return 0 < len(n) <= 96 and not n.startswith(".") and re.fullmatch(r"[A-Za-z0-9._-]+", n) is not None


def safe_component(c):
    return c not in ("", ".", "..") and len(c) <= 100 and re.fullmatch(r"[A-Za-z0-9._@+-]+", c) is not None


def safe_rel(p):
    return (len(p) <= 200 and (p.startswith("lib/") or p.startswith("share/"))
            and all(safe_component(c) for c in p.split("/")))


def octal(field):
    text = field.split(b"\0", 1)[0].decode("ascii", "replace").strip()
    if not text:
        return 0
    try:
        return int(text, 8)
    except ValueError:
        raise Refused("tarball: bad header number")


def read_tar_gz(data):
    try:
        raw = gzip.decompress(data)
    except (OSError, EOFError) as e:
        raise Refused("tarball: %s" % e)
    if len(raw) > MAX_TREE:
        raise Refused("tarball: unpacked contents too large")
    files, off = [], 0
    while off + 512 <= len(raw):
        h = raw[off:off + 512]
        if not any(h):
            break
        if octal(h[148:156]) != sum(32 if 148 <= i < 156 else b for i, b in enumerate(h)):
            raise Refused("tarball: header checksum mismatch")
        if h[257:262] != b"ustar":
            raise Refused("tarball: not a ustar archive")
        name = h[0:100].split(b"\0", 1)[0].decode("latin-1")
        prefix = h[345:500].split(b"\0", 1)[0].decode("latin-1")
        name = prefix + "/" + name if prefix else name
        while name.startswith("./"):
            name = name[2:]
        size, typ = octal(h[124:136]), h[156:157]
        off += 512
        if off + size > len(raw):
            raise Refused("tarball: truncated")
        n = name.rstrip("/")
        if typ in (b"0", b"\0"):
            if not n or not all(safe_component(c) for c in n.split("/")):
                raise Refused("tarball: unsafe name %r" % name)
            if len(files) >= MAX_FILES:
                raise Refused("tarball: too many files")
            files.append((n, raw[off:off + size]))
        elif typ == b"5":
            if n and not all(safe_component(c) for c in n.split("/")):
                raise Refused("tarball: unsafe name %r" % name)
        else:
            raise Refused("tarball: %r is not a regular file or directory (type %r)" % (name, typ.decode("latin-1")))
        off += size + (512 - size % 512) % 512
    return files


def parse_manifest(text, arch):
    m = {"format": False, "version": "", "arch": "", "drivers": [], "files": {}}
    for n, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line or line.startswith("#"):
            continue
        k, eq, v = line.partition("=")
        if eq and " " not in k:
            if k == "format":
                if v != "1":
                    raise Refused("MANIFEST format %s is not known to this helper" % v)
                m["format"] = True
            elif k == "version" and safe_version(v):
                m["version"] = v
            elif k == "arch":
                m["arch"] = "".join(c for c in v if c.isalnum() or c in ".-+_")[:64]
            elif k == "drivers":
                m["drivers"] = [d for d in ("".join(c for c in x if c.isalnum() or c in ".-+_")[:64]
                                            for x in v.split(",")) if d]
            continue
        f = line.split(" ")
        if len(f) != 5 or f[0] != "file":
            raise Refused("MANIFEST line %d: %s" % (n, line))
        _, sha, mode, size, path = f
        try:
            mode, size = int(mode, 8), int(size)
        except ValueError:
            raise Refused("MANIFEST line %d: %s" % (n, line))
        if not re.fullmatch(r"[0-9a-f]{64}", sha) or mode not in (0o644, 0o755) or size < 0:
            raise Refused("MANIFEST line %d: %s" % (n, line))
        if not safe_rel(path):
            raise Refused("MANIFEST names %s, which a Mesa release may not install" % path)
        if path in m["files"]:
            raise Refused("MANIFEST names %s twice" % path)
        m["files"][path] = (sha, size)
    if not m["format"] or not m["version"]:
        raise Refused("MANIFEST has no format=1 or version= line")
    if m["arch"] != arch:
        raise Refused("the release is for %s, not %s" % (m["arch"], arch))
    for d, lib in (("vulkan", VULKAN_LIB), ("opencl", OPENCL_LIB)):
        if d in m["drivers"] and lib not in m["files"]:
            raise Refused("MANIFEST says %s but has no %s" % (d, lib))
    if not m["drivers"]:
        raise Refused("MANIFEST names no drivers")
    return m


def check(release_dir, arch):
    names = [n for n in os.listdir(release_dir) if n.startswith("tb323fu-mesa-")]
    want = [n for n in names if n.endswith("-%s.tar.gz" % arch)]
    if len(want) != 1:
        raise Refused("no tb323fu-mesa-<version>-%s.tar.gz: the channel does not see this release (%s)"
                      % (arch, ", ".join(names) or "no tarball"))
    name = want[0]
    version = name[len("tb323fu-mesa-"):-len("-%s.tar.gz" % arch)]
    if not safe_version(version) or not safe_asset_name(name):
        raise Refused("%s: not a version or asset name the channel takes" % name)
    data = open(os.path.join(release_dir, name), "rb").read()
    if len(data) > MAX_TARBALL:
        raise Refused("%s is larger than 256 MiB" % name)
    sums = {}
    for line in open(os.path.join(release_dir, "SHA256SUMS"), encoding="utf-8", errors="replace"):
        h, sp, n = line.rstrip("\n").rstrip("\r").partition(" ")
        n = n.lstrip(" ").lstrip("*")
        if sp and re.fullmatch(r"[0-9a-fA-F]{64}", h) and safe_asset_name(n):
            sums[n] = h.lower()
    if sums.get(name) != hashlib.sha256(data).hexdigest():
        raise Refused("%s: SHA-256 does not match SHA256SUMS" % name)
    files = read_tar_gz(data)
    mtext = [d for n, d in files if n == "MANIFEST"]
    if not mtext:
        raise Refused("the tarball has no MANIFEST")
    if len(mtext[0]) > MAX_MANIFEST:
        raise Refused("MANIFEST too large")
    try:
        text = mtext[0].decode("utf-8")
    except UnicodeDecodeError:
        raise Refused("MANIFEST is not text")
    m = parse_manifest(text, arch)
    if m["version"] != version:
        raise Refused("the tarball is Mesa %s, the release is %s" % (m["version"], version))
    left = dict(m["files"])
    for n, d in files:
        if n == "MANIFEST":
            continue
        if not n.startswith("tree/"):
            raise Refused("the tarball has %s outside tree/" % n)
        rel = n[len("tree/"):]
        if rel not in left:
            raise Refused("the tarball has %s, which MANIFEST does not list" % rel)
        sha, size = left.pop(rel)
        if len(d) != size or hashlib.sha256(d).hexdigest() != sha:
            raise Refused("%s does not match MANIFEST" % rel)
    if left:
        raise Refused("MANIFEST lists %s, which the tarball does not have" % sorted(left)[0])
    return m


def main():
    args = sys.argv[1:]
    arch = "aarch64"
    if "--arch" in args:
        i = args.index("--arch")
        arch = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    try:
        m = check(args[0], arch)
    except Refused as e:
        print("refused: %s" % e)
        sys.exit(1)
    selected = [d for d in m["drivers"] if d in ("vulkan", "opencl")]
    unused = [d for d in m["drivers"] if d not in selected]
    print("accepted; it selects %s%s" % (",".join(selected) or "nothing",
                                          "; unpacked, not selected: " + ",".join(unused) if unused else ""))


if __name__ == "__main__":
    main()
