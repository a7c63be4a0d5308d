#!/usr/bin/env python3
# The tools of tests/hostile.sh, standard library only.
#
#   run --secs S --report FILE [--term-when TEXT] [--json OUT] -- CMD...
#       runs CMD bounded in time, measuring the memory of every process it starts (see
#       hostile.sh's header) and finding what it leaves running; FILE gets one line:
#       "exit secs peak_kb single_kb timed_out orphans [names]", and with --json, when
#       OUT (CMD's output) is not empty, a second: "-" when every line of OUT is strict
#       JSON (as `json` checks it), else what is wrong.
#   pack DIR huge-commit TREE PARENT BYTES    a commit of BYTES of parent lines
#   pack DIR tag-blob BYTES                   a blob of BYTES zeros and a tag of it
#   pack DIR chain DEPTH                      a blob and DEPTH deltas each on the one before
#   pack DIR bad-commits TREE PARENT COUNT    COUNT commits, each with TREE in uppercase
#       write DIR/pack-<sum>.pack and .idx (SHA-1), cheaply: a part repeated is deflated
#       once and its bytes repeated; print the IDs that matter, one a line.
#   reftable FILE FIRST MORE    a table of one ref block: a name of FIRST bytes, then MORE
#       records each keeping all of the name before and adding a byte
#   json FILE    every line of FILE is UTF-8 and strict JSON (no duplicate key, no NaN)
# SPDX-License-Identifier: MIT
import ctypes
import hashlib
import json
import os
import resource
import signal
import struct
import sys
import time
import zlib

MOD = 65521


def adler_combine(a1, len2, a2):
    """adler32 of A then B, from adler32(A), len(B) and adler32(B)."""
    s1a, s2a = a1 & 0xFFFF, a1 >> 16
    s1b, s2b = a2 & 0xFFFF, a2 >> 16
    s1 = (s1a + s1b - 1) % MOD
    s2 = (s2a + s2b + len2 % MOD * ((s1a - 1) % MOD)) % MOD
    return s2 << 16 | s1


def deflate_parts(parts):
    """A zlib stream of parts [(bytes, times)]: each part deflated once after a full
    flush (so its bytes stand alone) and repeated. Returns (stream, size)."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    out = [b"\x78\xda"]
    adler, size = 1, 0
    for data, times in parts:
        block = c.compress(data) + c.flush(zlib.Z_FULL_FLUSH)
        one = zlib.adler32(data)
        for _ in range(times):
            adler = adler_combine(adler, len(data), one)
        size += len(data) * times
        out.append(block * times)
    out.append(c.flush(zlib.Z_FINISH))
    out.append(struct.pack(">I", adler))
    return b"".join(out), size


def zstored(data):
    """A zlib stream of data in stored blocks. zlib.compress sets up a deflate state of
    some 300 KB for each call, mapped and unmapped: 100,000 small objects cost minutes
    of page faults on a loaded machine. Git and hexoid inflate stored blocks as any."""
    out = [b"\x78\x01"]
    at = 0
    while True:
        chunk = data[at:at + 65535]
        at += len(chunk)
        final = at >= len(data)
        out += [struct.pack("<BHH", final, len(chunk), len(chunk) ^ 0xFFFF), chunk]
        if final:
            break
    out.append(struct.pack(">I", zlib.adler32(data)))
    return b"".join(out)


def object_id(kind, parts):
    h = hashlib.sha1()
    h.update(b"%s %d\0" % (kind, sum(len(d) * t for d, t in parts)))
    for data, times in parts:
        for _ in range(times):
            h.update(data)
    return h.digest()


TYPES = {b"commit": 1, b"tree": 2, b"blob": 3, b"tag": 4}


def entry_header(code, size):
    b = (code << 4) | (size & 15)
    size >>= 4
    out = bytearray()
    while size:
        out.append(b | 0x80)
        b = size & 0x7F
        size >>= 7
    out.append(b)
    return bytes(out)


def ofs_bytes(off):
    out = bytearray([off & 0x7F])
    off >>= 7
    while off:
        off -= 1
        out.insert(0, 0x80 | (off & 0x7F))
        off >>= 7
    return bytes(out)


def write_pack(folder, entries):
    """entries: [(oid, raw entry bytes)] in pack order, each entry's bytes from its header
    on. Writes the pack and its version 2 index."""
    body = [b"PACK", struct.pack(">II", 2, len(entries))]
    at = 12
    rows = []
    h = hashlib.sha1()
    h.update(body[0] + body[1])
    for oid, raw in entries:
        rows.append((oid, zlib.crc32(raw), at))
        h.update(raw)
        body.append(raw)
        at += len(raw)
    psum = h.digest()
    body.append(psum)
    name = os.path.join(folder, "pack-" + psum.hex())
    with open(name + ".pack", "wb") as f:
        f.writelines(body)
    rows.sort()
    fan = [0] * 256
    for oid, _, _ in rows:
        fan[oid[0]] += 1
    idx = bytearray(b"\377tOc" + struct.pack(">I", 2))
    total = 0
    for i in range(256):
        total += fan[i]
        idx += struct.pack(">I", total)
    for oid, _, _ in rows:
        idx += oid
    for _, crc, _ in rows:
        idx += struct.pack(">I", crc)
    for _, _, off in rows:
        idx += struct.pack(">I", off)
    idx += psum
    idx += hashlib.sha1(idx).digest()
    with open(name + ".idx", "wb") as f:
        f.write(idx)


def whole(kind, parts):
    """(oid, entry bytes) of an undeltified object."""
    stream, size = deflate_parts(parts)
    return object_id(kind, parts), entry_header(TYPES[kind], size) + stream


IDENT = b"hexoid <hexoid@example.com> 1700000000 +0000"


def pack(argv):
    folder, what = argv[0], argv[1]
    os.makedirs(folder, exist_ok=True)
    entries, show = [], []
    if what == "huge-commit":
        tree, parent, want = argv[2].encode(), argv[3].encode(), int(argv[4])
        line = b"parent " + parent + b"\n"
        per = (1 << 20) // len(line)
        lines = want // len(line)
        parts = [(b"tree " + tree + b"\n", 1), (line * per, lines // per),
                 (line * (lines % per) + b"author " + IDENT + b"\ncommitter " + IDENT +
                  b"\n\nhuge\n", 1)]
        entries.append(whole(b"commit", parts))
        show.append(entries[0][0])
    elif what == "tag-blob":
        want = int(argv[2])
        chunk = bytes(1 << 20)
        parts = [(chunk, want // len(chunk)), (bytes(want % len(chunk)), 1)]
        blob = whole(b"blob", parts)
        tag = b"object %s\ntype blob\ntag big\ntagger %s\n\na tag of a big blob\n" % (
            blob[0].hex().encode(), IDENT)
        entries += [blob, whole(b"tag", [(tag, 1)])]
        show.append(entries[1][0])
    elif what == "chain":
        depth = int(argv[2])
        base = bytes(range(256)) * 128  # 32 KiB
        data_len = len(base) + 1
        entries.append(whole(b"blob", [(base + b"0", 1)]))
        at_prev = 12
        at = 12 + len(entries[0][1])
        states = {}
        for i in range(1, depth + 1):
            tail = b"%d" % i
            new_len = len(base) + len(tail)
            # the result's size, then: copy the 32 KiB of base from the one before
            # (offset 0, size in its second byte), insert the tail
            delta = bytearray()
            for n in (data_len, new_len):
                while True:
                    b = n & 0x7F
                    n >>= 7
                    delta.append(b | (0x80 if n else 0))
                    if not n:
                        break
            delta += bytes([0x80 | 0x20, len(base) >> 8 & 0xFF, len(tail)]) + tail
            raw = entry_header(6, len(delta)) + ofs_bytes(at - at_prev) + zstored(bytes(delta))
            if new_len not in states:
                states[new_len] = hashlib.sha1(b"blob %d\0" % new_len + base)
            h = states[new_len].copy()
            h.update(tail)
            entries.append((h.digest(), raw))
            at_prev, at = at, at + len(raw)
            data_len = new_len
    elif what == "bad-commits":
        tree, parent, count = argv[2].upper().encode(), argv[3].encode(), int(argv[4])
        for i in range(count):
            text = b"tree %s\nparent %s\nauthor %s\ncommitter %s\n\nbad %d\n" % (
                tree, parent, IDENT, IDENT, i)
            oid = hashlib.sha1(b"commit %d\0" % len(text) + text).digest()
            entries.append((oid, entry_header(1, len(text)) + zstored(text)))
            show.append(oid)
    else:
        sys.exit("pack: unknown kind " + what)
    write_pack(folder, entries)
    for oid in show:
        print(oid.hex())


def varint(v):
    b = [v & 0x7F]
    v >>= 7
    while v:
        v -= 1
        b.insert(0, 0x80 | (v & 0x7F))
        v >>= 7
    return bytes(b)


def reftable(argv):
    """A version 1 table, no block size, one ref block: a deletion named refs/replace/ and
    FIRST bytes, then MORE deletions each keeping the whole name before and adding one
    byte (prefix compression: the names grow as the square of the records)."""
    path, first, more = argv[0], int(argv[1]), int(argv[2])
    t = bytearray(b"REFT\1" + bytes(19))
    t += b"r\0\0\0"
    t += varint(0) + varint((13 + first) << 3) + b"refs/replace/" + b"a" * first + varint(0)
    for i in range(more):
        t += varint(13 + first + i) + varint(1 << 3) + b"b" + varint(0)
    t += bytes([0, 0, 28, 0, 1])
    blen = len(t)
    if blen >= 1 << 24:
        sys.exit("reftable: a block of 16 MiB or more")
    t[25:28] = bytes([blen >> 16 & 0xFF, blen >> 8 & 0xFF, blen & 0xFF])
    t += bytes(68)
    with open(path, "wb") as f:
        f.write(t)


def json_problem(path):
    """None when every line of the file is UTF-8 and strict JSON, else what is wrong."""
    def pairs(kv):
        keys = [k for k, _ in kv]
        if len(keys) != len(set(keys)):
            raise ValueError("a key twice: %r" % keys)
        return dict(kv)

    def no_constant(c):
        raise ValueError("not JSON: " + c)

    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                json.loads(raw.decode("utf-8"), object_pairs_hook=pairs,
                           parse_constant=no_constant)
            except Exception as e:  # noqa: BLE001 - any failure is the answer
                return "line %d: %s: %r" % (number, e, raw[:120])
    return None


def strict_json(argv):
    problem = json_problem(argv[0])
    if problem:
        print(problem, file=sys.stderr)
        sys.exit(1)


# --- the bounded run -------------------------------------------------------------------

PAGE = os.sysconf("SC_PAGE_SIZE")


def processes():
    """{pid: (ppid, rss bytes, comm)} of every process /proc shows now."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                s = f.read()
        except OSError:
            continue
        r = s.rfind(b")")
        fields = s[r + 2:].split()
        comm = s[s.find(b"(") + 1:r].decode("utf-8", "replace")
        if fields[0] == b"Z":
            continue
        out[int(name)] = (int(fields[1]), int(fields[21]) * PAGE, comm)
    return out


def descendants(procs, root):
    kids = {}
    for pid, (ppid, _, _) in procs.items():
        kids.setdefault(ppid, []).append(pid)
    seen, todo = [], list(kids.get(root, []))
    while todo:
        p = todo.pop()
        seen.append(p)
        todo += kids.get(p, [])
    return seen


def cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def run(argv):
    secs, report, term_when, json_file = 10.0, None, None, None
    while argv and argv[0] != "--":
        if argv[0] == "--secs":
            secs = float(argv[1])
        elif argv[0] == "--report":
            report = argv[1]
        elif argv[0] == "--term-when":
            term_when = argv[1]
        elif argv[0] == "--json":
            json_file = argv[1]
        argv = argv[2:]
    cmd = argv[1:]
    me = os.getpid()
    # PR_SET_CHILD_SUBREAPER: a process orphaned in the tree is ours, not init's.
    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)
    start = time.monotonic()
    main = os.fork()
    if main == 0:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    peak = 0
    status = None
    timed_out = False
    termed = False
    while status is None:
        while True:
            try:
                pid, st = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pid = 0
            if pid == 0:
                break
            if pid == main:
                status = st
        if status is not None:
            break
        procs = processes()
        tree = descendants(procs, me)
        peak = max(peak, sum(procs[p][1] for p in tree if p in procs))
        if term_when and not termed and any(term_when in cmdline(p) for p in tree):
            os.kill(main, signal.SIGTERM)
            termed = True
        if time.monotonic() - start > secs:
            timed_out = True
            for p in tree:
                try:
                    os.kill(p, signal.SIGKILL)
                except OSError:
                    pass
        time.sleep(0.005)
    took = time.monotonic() - start
    # What is left: given a second to end, then named and killed.
    left = []
    until = time.monotonic() + 1.0
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass
        left = descendants(processes(), me)
        if not left or time.monotonic() > until:
            break
        time.sleep(0.02)
    names = ["%s" % cmdline(p)[:60].strip().replace(" ", "_") for p in left]
    for p in left:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
    try:
        while os.waitpid(-1, 0):
            pass
    except ChildProcessError:
        pass
    single = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if os.WIFEXITED(status):
        rc = os.WEXITSTATUS(status)
    else:
        rc = 128 + os.WTERMSIG(status)
    if timed_out:
        rc = 124
    line = "%d %.2f %d %d %d %d %s\n" % (rc, took, peak // 1024, single, timed_out, len(left),
                                          ",".join(names))
    # The JSON the command wrote (its stdout, all of it written: everything it started
    # has ended), checked here rather than by another python started after.
    if json_file and os.path.getsize(json_file):
        line += "%s\n" % (json_problem(json_file) or "-")
    if report:
        with open(report, "w") as f:
            f.write(line)
    else:
        sys.stderr.write(line)
    sys.exit(rc)


if __name__ == "__main__":
    what, rest = sys.argv[1], sys.argv[2:]
    {"run": run, "pack": pack, "reftable": reftable, "json": strict_json}[what](rest)
