package arc.helper;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.util.ArrayList;
import java.util.List;

/**
 * The helper's framing over its standard streams. Every frame is a 4-byte big-endian length, then that many bytes.
 *
 * <p>A request (host to helper): u32 id, u8 word count (at least 1), then each word as u32 length and UTF-8 bytes;
 * the first word names the operation. A response (helper to host): u32 id, u8 status (0 done, 1 failed, 2 hello),
 * then the payload: the operation's bytes, or for a failure {@code CODE TAB message} in UTF-8.
 */
public final class Frames {
    public static final int STATUS_OK = 0;
    public static final int STATUS_ERROR = 1;
    public static final int STATUS_HELLO = 2;
    /** The largest request the helper reads (text to type, a gesture's points): anything longer is a broken stream. */
    public static final int MAX_REQUEST = 4 << 20;

    private static final Charset UTF8 = Charset.forName("UTF-8");

    private Frames() {}

    /** One request: its id and its words (the operation first). */
    public static final class Request {
        public final int id;
        public final List<String> words;

        public Request(int id, List<String> words) {
            this.id = id;
            this.words = words;
        }

        public String op() {
            return words.get(0);
        }

        /** The words after the operation. */
        public List<String> args() {
            return words.subList(1, words.size());
        }
    }

    /**
     * Reads the next request; null at a clean end of the stream (the host closed it between frames). A stream that
     * ends inside a frame, a frame longer than MAX_REQUEST or words that do not fit the frame throw IOException: the
     * stream cannot be trusted past that point.
     */
    public static Request readRequest(DataInputStream in) throws IOException {
        int first = in.read();
        if (first < 0) return null;
        int length = (first << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedShort());
        if (length < 5 || length > MAX_REQUEST) throw new IOException("request frame of " + length + " bytes (5 to " + MAX_REQUEST + " allowed)");
        byte[] body = new byte[length];
        in.readFully(body);
        ByteBuffer buf = ByteBuffer.wrap(body);
        int id = buf.getInt();
        int count = buf.get() & 0xff;
        if (count == 0) throw new IOException("request " + id + " has no operation");
        List<String> words = new ArrayList<String>(count);
        for (int i = 0; i < count; i++) {
            if (buf.remaining() < 4) throw new IOException("request " + id + " ends inside word " + i);
            int n = buf.getInt();
            if (n < 0 || n > buf.remaining()) throw new IOException("request " + id + " word " + i + " claims " + n + " bytes, " + buf.remaining() + " left");
            byte[] word = new byte[n];
            buf.get(word);
            words.add(decode(word, id, i));
        }
        if (buf.remaining() != 0) throw new IOException("request " + id + " has " + buf.remaining() + " bytes after its words");
        return new Request(id, words);
    }

    /** Strict UTF-8: a word that is not UTF-8 is a broken request, never text typed with replacement characters. */
    private static String decode(byte[] word, int id, int index) throws IOException {
        CharsetDecoder decoder = UTF8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer chars = decoder.decode(ByteBuffer.wrap(word));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new IOException("request " + id + " word " + index + " is not UTF-8");
        }
    }

    /** Encodes a request (the host's side; the tests use it to speak to the helper). */
    public static byte[] encodeRequest(int id, String... words) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        writeInt(body, id);
        body.write(words.length);
        for (String word : words) {
            byte[] bytes = word.getBytes(UTF8);
            writeInt(body, bytes.length);
            body.write(bytes, 0, bytes.length);
        }
        return frame(body.toByteArray());
    }

    public static byte[] encodeResponse(int id, int status, byte[] payload) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(payload.length + 5);
        writeInt(body, id);
        body.write(status);
        body.write(payload, 0, payload.length);
        return frame(body.toByteArray());
    }

    public static byte[] errorPayload(String code, String message) {
        return (code + "\t" + (message == null ? "" : message)).getBytes(UTF8);
    }

    /** Writes one response in a single write, so a frame is never interleaved with another. */
    public static void writeResponse(OutputStream out, int id, int status, byte[] payload) throws IOException {
        out.write(encodeResponse(id, status, payload));
        out.flush();
    }

    public static byte[] utf8(String text) {
        return text.getBytes(UTF8);
    }

    private static byte[] frame(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 4);
        writeInt(out, body.length);
        out.write(body, 0, body.length);
        return out.toByteArray();
    }

    private static void writeInt(ByteArrayOutputStream out, int value) {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }
}
