package io.p2pbench.doctor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads files below one root directory: {@code /} for the live machine, a fixture folder for a
 * recorded one. A recorded tree is untrusted: a path that leaves the root (by {@code ..} or a
 * link) is refused, only regular files are opened (a FIFO would block the reader for ever, a device
 * could be anything), and no file is read past {@link #MAX_BYTES}. Each file and folder is read once
 * per instance and its answer kept: the pair checks ask for the same few files of every GPU once per
 * pair, thousands of times on a machine of many GPUs.
 */
final class RootedFiles {
    /** The most bytes read of one file; sysfs and /proc files are far smaller. */
    static final int MAX_BYTES = 1 << 20;
    /** The most names listed of one directory. */
    static final int MAX_ENTRIES = 100_000;

    private final Path root;
    private final boolean confined;
    /** What each path read gave: its bytes, or the {@link MachineSource.Unreadable} it threw. */
    private final Map<String, Object> read = new HashMap<>();
    /** What each folder listed gave: its names, or the {@link MachineSource.Unreadable} it threw. */
    private final Map<String, Object> listed = new HashMap<>();

    /**
     * @param confined whether every path, links resolved, must stay below {@code root} (recorded trees)
     */
    RootedFiles(Path root, boolean confined) {
        this.root = root.toAbsolutePath().normalize();
        this.confined = confined;
    }

    Path root() {
        return root;
    }

    /** The file {@code relative} names, checked to stay inside the root when confined. */
    Path resolve(String relative) throws MachineSource.Unreadable {
        if (relative.startsWith("/") || relative.contains("\\")) {
            throw new MachineSource.Unreadable(relative, "not a relative path", false);
        }
        Path p = root.resolve(relative).normalize();
        if (!p.startsWith(root)) {
            throw new MachineSource.Unreadable(relative, "leaves the machine tree", false);
        }
        if (confined && Files.exists(p)) {
            try {
                if (!p.toRealPath().startsWith(root.toRealPath())) {
                    throw new MachineSource.Unreadable(relative, "is a link out of the machine tree "
                            + root, false);
                }
            } catch (IOException e) {
                throw unreadable(relative, e);
            }
        }
        return p;
    }

    String text(String relative) throws MachineSource.Unreadable {
        return new String(bytes(relative), StandardCharsets.UTF_8);
    }

    byte[] bytes(String relative) throws MachineSource.Unreadable {
        Object kept = read.computeIfAbsent(relative, r -> {
            try {
                return readBytes(r);
            } catch (MachineSource.Unreadable e) {
                return e;
            }
        });
        if (kept instanceof MachineSource.Unreadable e) {
            throw e;
        }
        return ((byte[]) kept).clone();
    }

    private byte[] readBytes(String relative) throws MachineSource.Unreadable {
        Path p = resolve(relative);
        if (Files.isDirectory(p)) {
            throw new MachineSource.Unreadable(relative, "is a directory, not a file", false);
        }
        if (Files.exists(p) && !Files.isRegularFile(p)) {
            throw new MachineSource.Unreadable(relative, "is not a regular file (a FIFO, device or socket), which "
                    + "p2pbench does not open", false);
        }
        try (InputStream in = Files.newInputStream(p)) {
            byte[] data = in.readNBytes(MAX_BYTES + 1);
            if (data.length > MAX_BYTES) {
                throw new MachineSource.Unreadable(relative, "is larger than " + MAX_BYTES + " bytes", false);
            }
            return data;
        } catch (IOException e) {
            throw unreadable(relative, e);
        }
    }

    @SuppressWarnings("unchecked")
    List<String> list(String relative) throws MachineSource.Unreadable {
        Object kept = listed.computeIfAbsent(relative, r -> {
            try {
                return listNames(r);
            } catch (MachineSource.Unreadable e) {
                return e;
            }
        });
        if (kept instanceof MachineSource.Unreadable e) {
            throw e;
        }
        return new ArrayList<>((List<String>) kept);
    }

    private List<String> listNames(String relative) throws MachineSource.Unreadable {
        Path p = resolve(relative);
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
            for (Path e : ds) {
                if (names.size() >= MAX_ENTRIES) {
                    throw new MachineSource.Unreadable(relative, "has more than " + MAX_ENTRIES + " entries", false);
                }
                names.add(e.getFileName().toString());
            }
        } catch (IOException e) {
            throw unreadable(relative, e);
        }
        names.sort(null);
        return names;
    }

    static MachineSource.Unreadable unreadable(String relative, IOException e) {
        if (e instanceof NoSuchFileException) {
            return new MachineSource.Unreadable(relative, "does not exist", true);
        }
        if (e instanceof AccessDeniedException) {
            return new MachineSource.Unreadable(relative, "permission denied", false);
        }
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new MachineSource.Unreadable(relative, "cannot be read (" + why.lines().findFirst().orElse("") + ")",
                false);
    }
}
