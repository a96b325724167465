package arc.helper;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The entry point: {@code CLASSPATH=/data/local/tmp/arc-helper-HASH.jar app_process / arc.helper.Main [--idle-ms N]}.
 * Speaks the framed protocol (Frames, Server) on its own stdin and stdout, which over adb's {@code exec:} service is
 * the host's socket. Nothing else may write to stdout once the hello is out (adbd's raw exec merges stderr into the
 * same stream), so System.out and System.err are silenced before it.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (HelperException e) {
            System.err.println("arc-helper: " + e.getMessage());
            System.exit(2);
            return;
        }
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        PrintStream silent = new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {}

            @Override
            public void write(byte[] b, int off, int len) {}
        });
        Device device = new AndroidDevice();
        System.setOut(silent);
        System.setErr(silent);
        int status = 0;
        try {
            new Server(device, new DataInputStream(new BufferedInputStream(System.in, 65536)), out, options.idleMs).run();
        } catch (Throwable t) {
            status = 1;
        }
        // UiAutomation's looper thread is not a daemon: leave at once, as uiautomator's own commands do.
        System.exit(status);
    }
}
