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
 *
 * <p>arc starts it with {@code trap '' HUP; CLASSPATH=... app_process ...}: from Android 7.0 adbd runs {@code exec:}
 * on a PTY in raw mode, and the host's stream closing hangs the PTY up, which sends SIGHUP. Ignored (an ignored signal
 * stays ignored across execve, and neither app_process nor ART installs a SIGHUP handler), the hangup reaches the
 * helper as the end of its input instead, and Server lifts any finger it has down before ending.
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
            Server server = new Server(device, new DataInputStream(new BufferedInputStream(System.in, 65536)), out, options.idleMs);
            // The host gone and the request in progress stuck past the grace: end the process, which also ends its
            // UiAutomation connection (the service's death link), rather than live on with no host.
            server.exitIfStuck(Server.HANGUP_GRACE_MS, new Runnable() {
                public void run() {
                    Runtime.getRuntime().halt(1);
                }
            });
            server.run();
        } catch (Throwable t) {
            status = 1;
        }
        // UiAutomation's looper thread is not a daemon: leave at once, as uiautomator's own commands do.
        System.exit(status);
    }
}
