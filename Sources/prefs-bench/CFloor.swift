import Foundation

/// The floor of `prefs read FILE KEY` on a large binary domain: a C program that does only
/// what any exact reader of one key must do — map the file, check that every entry of the
/// offset table points before the table (CoreFoundation refuses a file where one does not),
/// find the top dictionary, and walk every key reference to its object's marker, comparing the
/// keys of the same length (a key seen twice, or one that is not an ASCII string, would change
/// the answer). No held folder,
/// no typed errors, no output beyond the key's position: what is left of prefs' time above
/// this is prefs' own, what is below it is the machine's.
enum CFloor {
  static let source = #"""
    #include <fcntl.h>
    #include <stdint.h>
    #include <stdio.h>
    #include <string.h>
    #include <sys/mman.h>
    #include <sys/stat.h>
    #include <unistd.h>

    static uint64_t be(const unsigned char *p, int n) {
      uint64_t v = 0;
      for (int i = 0; i < n; i++) v = v << 8 | p[i];
      return v;
    }

    static inline uint32_t field(const unsigned char *p, int n) {
      uint32_t v;
      memcpy(&v, p, 4);
      v = __builtin_bswap32(v);
      return n == 4 ? v : v >> (32 - 8 * n);
    }

    /* One loop per pair of widths, as a C programmer who cared would write it. */
    #define WALK(R, O)                                                                 \
      for (uint64_t i = 0; i < count; i++) {                                           \
        uint32_t ref = field(p + refs + i * R, R);                                     \
        if (ref >= objects) return 2;                                                  \
        uint32_t at = field(p + table + (uint64_t)ref * O, O);                         \
        if (at < 8 || at >= table) return 2;                                           \
        unsigned char marker = p[at];                                                  \
        if (marker == wanted) {                                                        \
          uint64_t last;                                                               \
          memcpy(&last, p + at + 1 + length - 8, 8);                                   \
          if (last == tail && memcmp(p + at + 1, key, length) == 0) {                  \
            if (found >= 0) return 3;                                                  \
            found = (long)i;                                                           \
          }                                                                            \
        } else if ((unsigned char)(marker - 0x50) >= 15) return 4;                    \
      }

    int main(int argc, char **argv) {
      int fd = open(argv[1], O_RDONLY);
      struct stat info;
      if (fd < 0 || fstat(fd, &info) != 0 || info.st_size < 40) return 1;
      size_t size = (size_t)info.st_size;
      const unsigned char *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) return 1;
      const unsigned char *t = p + size - 32;
      int osize = t[6], rsize = t[7];
      uint64_t objects = be(t + 8, 8), top = be(t + 16, 8), table = be(t + 24, 8);
      const char *key = argv[2];
      size_t length = strlen(key);
      if (length < 8 || length >= 15 || osize < 1 || osize > 4 || rsize < 1 || rsize > 4) return 5;
      unsigned char wanted = (unsigned char)(0x50 | length);
      /* Keys of one length share prefixes: their last eight bytes tell most apart. */
      uint64_t tail;
      memcpy(&tail, key + length - 8, 8);
      uint64_t at = be(p + table + top * osize, osize);
      uint64_t count = p[at] & 15, refs = at + 1;
      if (count == 15) {
        int width = 1 << (p[at + 1] & 15);
        count = be(p + at + 2, width);
        refs = at + 2 + width;
      }
      /* Every offset before the table: CoreFoundation refuses a file where one is not, so an
         exact reader looks at each entry (what prefs' read checks since issue 46). */
    #define CHECK(O)                                                                    \
      for (uint64_t i = 0; i < objects; i++)                                           \
        if (field(p + table + i * O, O) >= table) return 6;
      switch (osize) {
      case 1: CHECK(1) break;
      case 2: CHECK(2) break;
      case 3: CHECK(3) break;
      default: CHECK(4) break;
      }
      long found = -1;
    #define WIDTHS(R)                                                                   \
      switch (osize) {                                                                 \
      case 1: WALK(R, 1) break;                                                        \
      case 2: WALK(R, 2) break;                                                        \
      case 3: WALK(R, 3) break;                                                        \
      default: WALK(R, 4) break;                                                       \
      }
      switch (rsize) {
      case 1: WIDTHS(1) break;
      case 2: WIDTHS(2) break;
      case 3: WIDTHS(3) break;
      default: WIDTHS(4) break;
      }
      printf("%ld\n", found);
      return found >= 0 ? 0 : 1;
    }
    """#

  /// The floor's program and an empty C program beside it, built with the C compiler
  /// (`cc -O2 -static`); nil when there is none.
  static func build(in folder: URL, bench: Bench) throws -> (floor: String, empty: String)? {
    guard let cc = Bench.which("cc") ?? Bench.which("gcc") else {
      bench.skip("no C compiler: the C floor of one key")
      return nil
    }
    let floorSource = folder.appendingPathComponent("one-key-floor.c")
    let emptySource = folder.appendingPathComponent("empty.c")
    try Data(source.utf8).write(to: floorSource)
    try Data("int main(void) { return 0; }\n".utf8).write(to: emptySource)
    let floor = folder.appendingPathComponent("one-key-floor").path
    let empty = folder.appendingPathComponent("empty-c").path
    for (input, output) in [(floorSource.path, floor), (emptySource.path, empty)] {
      guard (try? bench.time([cc, "-O2", "-static", input, "-o", output])) != nil else {
        bench.skip("cc -O2 -static could not build \(input): the C floor of one key")
        return nil
      }
    }
    return (floor, empty)
  }
}
