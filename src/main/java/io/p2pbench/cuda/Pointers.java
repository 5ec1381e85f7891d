package io.p2pbench.cuda;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/** Raw-address helpers; JavaCPP positions are in elements, so offsets go through BytePointer. */
final class Pointers {
    private Pointers() {}

    static Pointer offset(Pointer base, long offset, long bytes) {
        if (offset < 0 || offset > bytes) {
            throw new IndexOutOfBoundsException("offset " + offset + " outside 0.." + bytes);
        }
        BytePointer view = new BytePointer(base);
        view.position(0);
        return view.position(offset);
    }

    /**
     * The NUL-terminated string in a buffer we allocated. JavaCPP's getString() reads up to the
     * buffer's limit when one is set (as for {@code new BytePointer(n)}), garbage after the NUL included.
     */
    static String cString(BytePointer p) {
        long cap = Math.max(p.capacity(), p.limit());
        if (cap <= 0) {
            return p.getString();
        }
        byte[] bytes = new byte[(int) cap];
        p.position(0).get(bytes);
        int n = 0;
        while (n < bytes.length && bytes[n] != 0) {
            n++;
        }
        return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }

    static ByteBuffer view(Pointer base, long bytes) {
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a host view is limited to 2 GiB, buffer has " + bytes + " bytes");
        }
        BytePointer view = new BytePointer(base);
        view.position(0).capacity(bytes).limit(bytes);
        return view.asByteBuffer();
    }
}
