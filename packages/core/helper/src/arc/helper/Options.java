package arc.helper;

/** The helper's command line: {@code [--idle-ms N]}. */
public final class Options {
    /** How long UiAutomation stays connected after the last request that needed it. */
    public long idleMs = 2000;

    public static final String USAGE = "usage: app_process / arc.helper.Main [--idle-ms N]   (N: 0 to 600000; 0 lets go after every request)";

    public static Options parse(String[] args) throws HelperException {
        Options options = new Options();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--idle-ms")) {
                if (i + 1 >= args.length) throw new HelperException(HelperException.BAD_REQUEST, "--idle-ms needs a value. " + USAGE);
                options.idleMs = Numbers.parse(args[++i], "--idle-ms", 0, 600000);
            } else {
                throw new HelperException(HelperException.BAD_REQUEST, "unknown argument \"" + arg + "\". " + USAGE);
            }
        }
        return options;
    }
}
