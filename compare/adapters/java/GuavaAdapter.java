/*
 * GuavaAdapter.java: the bloomlab audit's program protocol
 * (audit/program/PROTOCOL.md, version 1) over Guava's BloomFilter, as Debian
 * ships it (libguava-java 31.1, /usr/share/java/guava.jar).
 *
 *   javac -cp /usr/share/java/guava.jar -d OUT GuavaAdapter.java
 *   bloomlab audit --exec -- java -cp OUT:/usr/share/java/guava.jar GuavaAdapter
 *
 * What Guava 31.1 does (BloomFilter.java and BloomFilterStrategies.java at
 * tag v31.1; the installed jar disassembles to the same, javap -c):
 *
 *   BloomFilter.create(funnel, n, p) takes
 *       numBits = (long) (-n ln p / (ln 2)^2)
 *       numHashFunctions = max(1, round(numBits / n * ln 2))
 *   and keeps the bits in a LockFreeBitArray of ceil(numBits / 64) longs (an
 *   AtomicLongArray), so its m is numBits rounded up to whole 64-bit words.
 *   Its default strategy, MURMUR128_MITZ_64 (ordinal 1), hashes the key with
 *   murmur3_128 (seed 0) through the funnel, takes h1 and h2 as the hash's
 *   first and last eight bytes, little-endian, and probes
 *       x_i = ((h1 + i*h2) & Long.MAX_VALUE) % (64 * words),  i = 0 .. k-1
 *   in wrapping 64-bit arithmetic; mightContain stops at the first clear bit.
 *   There is no seed. The key goes in through Funnels.byteArrayFunnel(),
 *   which hashes its bytes as they are (NUL and invalid UTF-8 included).
 *   murmur3_128 of no bytes is 0, so the empty key's k probes are all bit 0.
 *
 * The mapping: exact k, m rounded up to whole words. create() chooses m and
 * k together from n and p, so it builds only about m/n * ln 2 hashes for m
 * bits; instead the adapter builds the filter from Guava's own serialized
 * form, as BloomFilter.writeTo writes it and readFrom reads it: the
 * strategy's ordinal (a byte), numHashFunctions (an unsigned byte), the
 * number of longs (an int), then the longs, here all zero. readFrom makes
 * the same BloomFilter that create makes, through the same constructor,
 * with exactly K hash functions and ceil(M / 64) words. The ordinal is the
 * one Guava's own create() writes, read from a filter it makes at start.
 * Guava cannot have a partial word (bitSize() is 64 * words, and every
 * probe is reduced mod that), so m is M rounded up to a multiple of 64:
 * 100,032 bits for the audit's first filter of 100,000, whose refusal would
 * end the audit. The adapter therefore says `rate ask` and answers with the
 * standard formula (1 - (1 - 1/m)^(kn))^k at Guava's real m, and `size` is
 * that m. Refused, with the reason:
 *   - M < 1 or K < 1 (LockFreeBitArray: "data length is zero!"; BloomFilter:
 *     numHashFunctions must be > 0);
 *   - K > 255 (numHashFunctions is an unsigned byte in the serialized form,
 *     and BloomFilter's constructor checks numHashFunctions <= 255);
 *   - ceil(M / 64) > 2^31 - 1 words (an int count, an AtomicLongArray);
 *   - a filter the JVM's heap cannot hold.
 *
 * Declared: `can positions`, computed here with Guava's own
 * Hashing.murmur3_128() and MURMUR128_MITZ_64's arithmetic above (copied,
 * since Guava does not expose it; its strategies are part of the serialized
 * form and never change, new ones get new ordinals). At start the adapter
 * checks them against the library: for keys of several lengths and shapes
 * it puts each key into an empty filter, reads the bits Guava set back
 * through writeTo, and compares them with the positions computed; `can
 * positions` is declared only when Guava's default strategy is ordinal 1
 * and every set agrees. Not declared: `can seed` (Guava has no seed; SEED
 * is read and ignored), `can remove`.
 *
 * Declared besides, Guava's own systems operations: `can save` (writeTo,
 * and readFrom for load: a file it throws on is refused with its message),
 * `can merge` (putAll, which refuses what isCompatible refuses: another
 * numHashFunctions, bitSize, strategy or funnel; Guava has no seed to
 * compare) and `can count` (approximateElementCount, a long, with no
 * deviation stated). readFrom allocates the array its header's int count
 * of longs asks before it reads one of them: a heap that cannot hold it
 * ends in OutOfMemoryError, which load answers as a refusal naming it.
 *
 * Input is read in 64 KiB blocks into one line buffer that grows up to
 * lines of 32 MiB of hex (keys of 16 MiB; the audit's longest is 1 MiB and a
 * byte); answers are buffered and written whenever the adapter would wait
 * for input. A longer line, a key that is not hex, a count above 4096, a
 * request on an unknown ID, or any other request writes a message on
 * standard error and exits with status 1. `free` answers ok for any ID, a
 * refused one too.
 */

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import com.google.common.hash.Funnels;
import com.google.common.hash.Hashing;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

public final class GuavaAdapter {
    static final int MAX_KEYS = 4096;
    static final int MAX_FILE = 16 << 20; // bytes of a saved filter (PROTOCOL.md)
    static final int MAX_LINE = 2 * (16 << 20) + 1; // a 16 MiB key's hex, and a \r
    static final int MAX_HASHES = 255; // BloomFilter's constructor
    static final long MAX_WORDS = Integer.MAX_VALUE;
    static final int MITZ_64 = 1; // the ordinal of MURMUR128_MITZ_64, whose arithmetic positions copies
    static final Funnel<byte[]> FUNNEL = Funnels.byteArrayFunnel();
    static final BigInteger U64 = BigInteger.ONE.shiftLeft(64);

    /** A filter and the shape Guava built for it. */
    static final class Filter {
        final BloomFilter<byte[]> bloom;
        final long bits; // 64 * words
        final int k;

        Filter(BloomFilter<byte[]> bloom, long bits, int k) {
            this.bloom = bloom;
            this.bits = bits;
            this.k = k;
        }
    }

    final Map<String, Filter> filters = new HashMap<>();
    final OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
    final InputStream in = new FileInputStream(FileDescriptor.in); // unbuffered: input is the buffer
    final byte[] input = new byte[1 << 16];
    int inputAt, inputEnd;
    byte[] line = new byte[256];
    int lineLen;
    String request = ""; // the request being served, for a message
    int ordinal; // Guava's default strategy, from its own create()
    boolean declared; // can positions, decided in the handshake

    public static void main(String[] args) throws IOException {
        if (args.length != 0) {
            die("usage: java -cp OUT:guava.jar GuavaAdapter (it speaks the protocol on stdin and stdout)");
        }
        new GuavaAdapter().serve();
    }

    static void die(String why) {
        System.err.println("guava-adapter: " + why);
        System.exit(1);
    }

    void fail(String why) throws IOException {
        out.flush();
        die(why + ", serving \"" + request + "\"");
    }

    // ---- lines ----

    /** refill flushes the answers, then reads what standard input has; false at its end. */
    boolean refill() throws IOException {
        out.flush(); // the audit may be waiting for them before it writes more
        int got = in.read(input, 0, input.length);
        if (got <= 0) {
            return false;
        }
        inputAt = 0;
        inputEnd = got;
        return true;
    }

    /** readLine reads one line into line[0:lineLen], without its \n and one \r before it; false at the end. */
    boolean readLine() throws IOException {
        lineLen = 0;
        boolean any = false;
        for (;;) {
            if (inputAt == inputEnd && !refill()) {
                if (!any) {
                    return false;
                }
                break; // a last line without its \n
            }
            any = true;
            int nl = inputAt;
            while (nl < inputEnd && input[nl] != '\n') {
                nl++;
            }
            int take = nl - inputAt;
            if (lineLen + take > MAX_LINE) {
                fail("a line longer than " + MAX_LINE + " bytes");
            }
            if (lineLen + take > line.length) {
                byte[] grown = new byte[Math.min(MAX_LINE, Math.max(2 * line.length, lineLen + take))];
                System.arraycopy(line, 0, grown, 0, lineLen);
                line = grown;
            }
            System.arraycopy(input, inputAt, line, lineLen, take);
            lineLen += take;
            inputAt = nl;
            if (nl < inputEnd) {
                inputAt++;
                break;
            }
        }
        if (lineLen > 0 && line[lineLen - 1] == '\r') {
            lineLen--;
        }
        return true;
    }

    void answer(String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.US_ASCII));
        out.write('\n');
    }

    static int hexValue(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** readKey reads the next key line and returns its bytes. */
    byte[] readKey() throws IOException {
        if (!readLine()) {
            fail("the input ended in the keys");
        }
        if (lineLen % 2 != 0) {
            fail("a key line of odd length " + lineLen);
        }
        byte[] key = new byte[lineLen / 2];
        for (int i = 0; i < key.length; i++) {
            int hi = hexValue(line[2 * i]), lo = hexValue(line[2 * i + 1]);
            if (hi < 0 || lo < 0) {
                fail("a key line that is not hex");
            }
            key[i] = (byte) (hi << 4 | lo);
        }
        return key;
    }

    /** number parses a decimal number of digits only, below 2^64. */
    BigInteger number(String s) throws IOException {
        if (s.isEmpty() || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            fail("\"" + s + "\" is not a decimal number");
        }
        BigInteger v = new BigInteger(s);
        if (v.compareTo(U64) >= 0) {
            fail(s + " is past 2^64 - 1");
        }
        return v;
    }

    // ---- building Guava's filters ----

    /**
     * Zeros is Guava's serialized form of an empty filter: the strategy's
     * ordinal, numHashFunctions, the number of longs, then that many zero
     * longs, made as readFrom reads it rather than held in memory.
     */
    static final class Zeros extends InputStream {
        final byte[] header;
        long left; // header and zero bytes still to give
        int at;

        Zeros(int ordinal, int k, int words) {
            header = ByteBuffer.allocate(6).put((byte) ordinal).put((byte) k).putInt(words).array();
            left = header.length + 8L * words;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left == 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            for (int i = 0; i < n; i++) {
                b[off + i] = at < header.length ? header[at++] : 0;
            }
            left -= n;
            return n;
        }
    }

    /** empty builds Guava's empty filter with k hash functions and the given words, through readFrom. */
    static BloomFilter<byte[]> empty(int ordinal, int k, int words) throws IOException {
        return BloomFilter.readFrom(new Zeros(ordinal, k, words), FUNNEL);
    }

    /** words returns ceil(m / 64), or -1 when m is above what a Guava filter can hold. */
    static long words(BigInteger m) {
        BigInteger w = m.add(BigInteger.valueOf(63)).shiftRight(6);
        return w.compareTo(BigInteger.valueOf(MAX_WORDS)) > 0 ? -1 : w.longValueExact();
    }

    /** refusal says why Guava cannot build m bits with k hashes, or null when it can. */
    static String refusal(BigInteger m, BigInteger k) {
        if (m.signum() == 0 || k.signum() == 0) {
            return "Guava needs at least one bit (LockFreeBitArray: data length is zero!) and one hash function "
                    + "(numHashFunctions must be > 0)";
        }
        if (k.compareTo(BigInteger.valueOf(MAX_HASHES)) > 0) {
            return "k = " + k + ": Guava keeps numHashFunctions in one unsigned byte of its serialized form "
                    + "and its constructor checks numHashFunctions <= 255";
        }
        if (words(m) < 0) {
            return "m = " + m + ": Guava keeps its bits in an AtomicLongArray of at most 2^31 - 1 longs "
                    + "(an int count in its serialized form), at most " + (64 * MAX_WORDS) + " bits";
        }
        return null;
    }

    void newFilter(String[] f) throws IOException {
        String id = f[1];
        BigInteger m = number(f[2]), k = number(f[3]);
        number(f[4]); // N: Guava keeps no capacity, and sizes nothing by it here
        number(f[5]); // SEED: Guava has no seed, and "can seed" is not declared
        if (filters.containsKey(id)) {
            fail("filter " + id + " exists already");
        }
        String why = refusal(m, k);
        if (why != null) {
            answer("refused " + why);
            return;
        }
        int words = (int) words(m);
        try {
            filters.put(id, new Filter(empty(ordinal, k.intValueExact(), words), 64L * words, k.intValueExact()));
            answer("ok");
        } catch (OutOfMemoryError e) {
            answer("refused " + words + " longs for m = " + m + " do not fit the JVM's heap of "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB");
        } catch (IOException e) {
            answer("refused Guava's readFrom: " + e.getMessage().replaceAll("\\s+", " "));
        }
    }

    // ---- positions, as MURMUR128_MITZ_64 reads them ----

    /** positions writes the k positions MURMUR128_MITZ_64 probes for key in a filter of bits bits. */
    static long[] positions(byte[] key, int k, long bits) {
        ByteBuffer h = ByteBuffer.wrap(Hashing.murmur3_128().hashBytes(key).asBytes()).order(ByteOrder.LITTLE_ENDIAN);
        long h1 = h.getLong(0), h2 = h.getLong(8);
        long[] p = new long[k];
        long combined = h1;
        for (int i = 0; i < k; i++) {
            p[i] = (combined & Long.MAX_VALUE) % bits;
            combined += h2;
        }
        return p;
    }

    /**
     * positionsAgree puts keys of several lengths into empty filters of
     * several shapes and compares the bits Guava sets, read back through
     * writeTo, with the positions computed: the check that declares them.
     */
    static boolean positionsAgree(int ordinal) throws IOException {
        if (ordinal != MITZ_64) {
            System.err.println("guava-adapter: Guava's default strategy is ordinal " + ordinal
                    + ", not MURMUR128_MITZ_64's: positions not declared");
            return false;
        }
        Random r = new Random(1); // fixed: the same keys every start
        int[][] shapes = {{1, 1}, {1, 7}, {3, 13}, {1563, 7}, {17, 255}};
        for (int[] s : shapes) {
            int words = s[0], k = s[1];
            for (int len = 0; len < 40; len++) {
                byte[] key = new byte[len];
                r.nextBytes(key);
                BloomFilter<byte[]> f = empty(ordinal, k, words);
                f.put(key);
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                f.writeTo(bytes);
                ByteBuffer data = ByteBuffer.wrap(bytes.toByteArray(), 6, 8 * words);
                long[] set = new long[words];
                for (int w = 0; w < words; w++) {
                    set[w] = data.getLong();
                }
                long[] want = new long[words];
                for (long p : positions(key, k, 64L * words)) {
                    want[(int) (p >>> 6)] |= 1L << p;
                }
                if (!Arrays.equals(set, want)) {
                    System.err.println("guava-adapter: Guava set other bits than the positions computed for a key of "
                            + len + " bytes at " + words + " words and k = " + k + ": positions not declared");
                    return false;
                }
            }
        }
        return true;
    }

    // ---- requests ----

    /** defaultOrdinal is the strategy Guava's own create() writes in its serialized form. */
    static int defaultOrdinal() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BloomFilter.create(FUNNEL, 1000, 0.01).writeTo(bytes);
        return bytes.toByteArray()[0];
    }

    void handshake() throws IOException {
        if (!readLine()) {
            die("no handshake");
        }
        request = new String(line, 0, Math.min(lineLen, 80), StandardCharsets.ISO_8859_1);
        if (!request.equals("bloomlab-audit 1") || lineLen != request.length()) {
            die("unknown handshake \"" + request + "\" (this adapter speaks \"bloomlab-audit 1\")");
        }
        ordinal = defaultOrdinal();
        Properties pom = new Properties(); // the jar's own record of its version
        try (InputStream v = BloomFilter.class.getResourceAsStream("/META-INF/maven/com.google.guava/guava/pom.properties")) {
            if (v != null) {
                pom.load(v);
            }
        }
        String version = pom.getProperty("version");
        answer("hello guava");
        answer("about Guava " + (version == null ? "" : version + " ") + "BloomFilter (Debian libguava-java): "
                + "murmur3_128 double hashing ((h1 + i*h2) & Long.MAX_VALUE) % m, m rounded up to 64 bits, "
                + "k exact through its serialized form, no seed");
        declared = positionsAgree(ordinal);
        if (declared) {
            answer("can positions");
        }
        answer("can save");
        answer("can merge");
        answer("can count");
        answer("rate ask");
        answer("ready");
    }

    /** keyed serves add, test and positions: count key lines, then one answer. */
    void keyed(String op, String[] f) throws IOException {
        Filter flt = filters.get(f[1]);
        BigInteger count = number(f[2]);
        if (count.compareTo(BigInteger.valueOf(MAX_KEYS)) > 0) {
            fail(count + " keys in one request, above " + MAX_KEYS);
        }
        if (flt == null) {
            fail("no filter " + f[1]);
        }
        int n = count.intValue();
        StringBuilder sb = new StringBuilder(op.equals("test") ? n : 16);
        for (int i = 0; i < n; i++) {
            byte[] key = readKey();
            switch (op) {
                case "add" -> flt.bloom.put(key);
                case "test" -> sb.append(flt.bloom.mightContain(key) ? '1' : '0');
                default -> {
                    long[] p = positions(key, flt.k, flt.bits);
                    for (int j = 0; j < p.length; j++) {
                        sb.append(j == 0 ? "" : " ").append(p[j]);
                    }
                    sb.append('\n');
                }
            }
        }
        switch (op) {
            case "add" -> answer("ok");
            case "test" -> answer(sb.toString());
            default -> out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
        }
    }

    // ---- a filter in a system: writeTo, readFrom, putAll, approximateElementCount ----

    Filter filter(String id) throws IOException {
        Filter flt = filters.get(id);
        if (flt == null) {
            fail("no filter " + id);
        }
        return flt;
    }

    void save(String[] f) throws IOException {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        filter(f[1]).bloom.writeTo(file);
        StringBuilder hex = new StringBuilder(2 * file.size());
        for (byte b : file.toByteArray()) {
            hex.append(Character.forDigit(b >> 4 & 15, 16)).append(Character.forDigit(b & 15, 16));
        }
        answer(hex.toString());
    }

    void load(String[] f) throws IOException {
        String id = f[1];
        BigInteger size = number(f[2]);
        if (size.compareTo(BigInteger.valueOf(MAX_FILE)) > 0) {
            fail("a file of " + size + " bytes, past " + MAX_FILE);
        }
        if (filters.containsKey(id)) {
            fail("filter " + id + " exists already");
        }
        byte[] data = readKey();
        if (data.length != size.intValue()) {
            fail("a file line of " + data.length + " bytes, not " + size);
        }
        try {
            BloomFilter<byte[]> bloom = BloomFilter.readFrom(new ByteArrayInputStream(data), FUNNEL);
            // readFrom took the header as written: k a byte, then the int count of longs.
            int k = data[1] & 0xff, words = ByteBuffer.wrap(data, 2, 4).getInt();
            filters.put(id, new Filter(bloom, 64L * words, k));
            answer("ok");
        } catch (IOException e) {
            answer("refused Guava's readFrom: " + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
        } catch (OutOfMemoryError e) {
            answer("refused Guava's readFrom ran out of the JVM's heap of " + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MiB (OutOfMemoryError: " + e.getMessage() + ")");
        }
    }

    void merge(String[] f) throws IOException {
        Filter flt = filter(f[1]), other = filter(f[2]);
        try {
            flt.bloom.putAll(other.bloom);
            answer("ok");
        } catch (IllegalArgumentException e) {
            answer("refused Guava's putAll: " + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
        }
    }

    /** rate is the standard formula at the m Guava builds for M, whole 64-bit words. */
    String rate(String[] f) throws IOException {
        BigInteger m = number(f[1]).add(BigInteger.valueOf(63)).shiftRight(6).shiftLeft(6);
        double k = number(f[2]).doubleValue(), n = number(f[3]).doubleValue(), bits = m.doubleValue();
        if (bits == 0 || k == 0) {
            return "0";
        }
        return Double.toString(Math.pow(-Math.expm1(k * n * Math.log1p(-1 / bits)), k));
    }

    void serve() throws IOException {
        handshake();
        while (readLine()) {
            request = new String(line, 0, Math.min(lineLen, 96), StandardCharsets.ISO_8859_1);
            String whole = lineLen <= 96 ? request : new String(line, 0, lineLen, StandardCharsets.ISO_8859_1);
            String[] f = whole.split(" ", -1);
            switch (f[0] + "/" + f.length) {
                case "new/6" -> newFilter(f);
                case "add/3", "test/3" -> keyed(f[0], f);
                case "positions/3" -> {
                    if (!declared) {
                        fail("positions is not declared");
                    }
                    keyed(f[0], f);
                }
                case "size/2" -> {
                    Filter flt = filters.get(f[1]);
                    if (!declared || flt == null) {
                        fail(declared ? "no filter " + f[1] : "size is not declared");
                    }
                    answer(Long.toString(flt.bits));
                }
                case "rate/4" -> answer(rate(f));
                case "save/2" -> save(f);
                case "load/3" -> load(f);
                case "merge/3" -> merge(f);
                case "count/2" -> answer(Long.toString(filter(f[1]).bloom.approximateElementCount()));
                case "free/2" -> {
                    filters.remove(f[1]); // a refused ID too: the audit may free all it named
                    answer("ok");
                }
                case "bye/1" -> {
                    out.flush();
                    return;
                }
                default -> fail("unknown request");
            }
        }
        out.flush(); // the audit closed the pipe: as good as bye
    }
}
