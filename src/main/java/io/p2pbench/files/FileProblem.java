package io.p2pbench.files;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says what went wrong with a file in words: {@code /x/run: permission denied}, not {@code
 * AccessDeniedException} or the bare path Java puts in its message; {@code a list where an object belongs at
 * line 1, column 1}, not Jackson's {@code Cannot deserialize value of type `...RunManifest` from Array value}.
 */
public final class FileProblem {
    private FileProblem() {}

    /** The file (where the exception names one) and why, e.g. {@code /x/run: permission denied}. */
    public static String of(IOException e) {
        if (e instanceof FileSystemException f && f.getFile() != null) {
            return f.getFile() + (f.getOtherFile() == null ? "" : " -> " + f.getOtherFile()) + ": " + why(e);
        }
        Matcher m = JAVA_IO.matcher(e.getMessage() == null ? "" : e.getMessage().strip());
        if (e instanceof FileNotFoundException && m.matches()) {
            return m.group(1) + ": " + why(e);
        }
        return why(e);
    }

    /**
     * Why {@code path} cannot be looked at (a folder above it that may not be searched: {@code permission
     * denied}), or null where it can: it exists, or it is plainly absent (or lies under a file).
     * {@link Files#exists} says "no" for both an absent file and one behind a folder it may not enter; this tells
     * them apart.
     */
    public static String unreachable(Path path) {
        try {
            Files.readAttributes(path, BasicFileAttributes.class);
            return null;
        } catch (AccessDeniedException e) {
            return why(e);
        } catch (IOException absentOrUnderAFile) {
            return null; // the caller's own checks say "does not exist" or "is a file"
        }
    }

    /** What each kind of file-system refusal means, in the words the messages use; checked in this order. */
    private static final List<Map.Entry<Class<? extends IOException>, String>> REASONS = List.of(
            Map.entry(AccessDeniedException.class, "permission denied"),
            Map.entry(NoSuchFileException.class, "no such file or folder"),
            Map.entry(NotDirectoryException.class, "not a folder"),
            Map.entry(FileAlreadyExistsException.class, "already exists"),
            Map.entry(DirectoryNotEmptyException.class, "the folder is not empty"),
            Map.entry(FileSystemLoopException.class, "its links form a loop"));

    /** java.io's wording of a file it could not open: {@code PATH (Permission denied)}. */
    private static final Pattern JAVA_IO = Pattern.compile("^(.*) \\(([^()]+)\\)$");

    /** Why, without the file: {@code permission denied}, {@code no such file or folder}, or the reason given. */
    public static String why(IOException e) {
        for (Map.Entry<Class<? extends IOException>, String> reason : REASONS) {
            if (reason.getKey().isInstance(e)) {
                return reason.getValue();
            }
        }
        if (e instanceof FileSystemException f) {
            return f.getReason() != null ? f.getReason().strip() : "cannot be used";
        }
        String message = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("").strip();
        Matcher m = JAVA_IO.matcher(message);
        if (e instanceof FileNotFoundException && m.matches()) {
            return m.group(2).toLowerCase(Locale.ROOT); // lower case, as the others
        }
        return message.isEmpty() ? "an I/O error" : message;
    }

    /**
     * Why a JSON document could not be read as what was expected, with the place: {@code it ends early
     * (truncated?) at line 3, column 1}, {@code a list where an object belongs at line 1, column 1}, {@code
     * "entries[2].rounds": text where a number belongs at ...}; never a Java class name.
     */
    public static String of(JacksonException e) {
        String at = at(e.getLocation());
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof JsonParseException parse) {
                // A parse error met while binding a field: the text is broken, not of the wrong type.
                return of(parse);
            }
        }
        if (e instanceof JsonEOFException) {
            return "it ends early (truncated?)" + at;
        }
        if (e instanceof UnrecognizedPropertyException u) {
            String field = field(u);
            List<String> known = u.getKnownPropertyIds() == null ? List.of()
                    : u.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
            return "unknown field \"" + field + "\"" + at
                    + (known.isEmpty() ? "" : "; known here: " + String.join(", ", known));
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            String field = field(m);
            return (field.isEmpty() ? "" : "\"" + field + "\": ") + found(m.getOriginalMessage()) + " where "
                    + expected(m.getTargetType()) + " belongs" + at;
        }
        if (e instanceof JsonParseException) {
            return "it is not JSON (damaged or truncated?)" + at;
        }
        String field = e instanceof JsonMappingException m ? field(m) : "";
        String first = e.getOriginalMessage() == null ? "" : e.getOriginalMessage().lines().findFirst().orElse("");
        return (field.isEmpty() ? "" : "\"" + field + "\": ") + withoutClassNames(first) + at;
    }

    private static String at(JsonLocation where) {
        return where == null || where.getLineNr() < 1 ? ""
                : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
    }

    /** The JSON path of the value, e.g. {@code entries[2].rounds}; empty at the top. */
    private static String field(JsonMappingException m) {
        return jsonPath(m.getPath());
    }

    /** {@code path} as people read it, e.g. {@code gpus[0].smCount}; empty for none. */
    public static String jsonPath(List<JsonMappingException.Reference> path) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : path) {
            if (r.getFieldName() != null) {
                sb.append(sb.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    /** What Jackson found, from its message: {@code ... from Array value ...}, {@code Cannot coerce Floating-point}. */
    private static String found(String message) {
        Matcher m = Pattern.compile("(?:from|coerce) (Array|Object|String|Integer|Floating-point|Boolean)\\b")
                .matcher(message == null ? "" : message);
        String token = m.find() ? m.group(1) : "";
        return switch (token) {
            case "Array" -> "a list";
            case "Object" -> "an object";
            case "String" -> "text";
            case "Integer", "Floating-point" -> "a number";
            case "Boolean" -> "true or false";
            default -> "a value of another JSON type";
        };
    }

    private static String expected(Class<?> type) {
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "an object";
        }
        if (type == String.class || type == Character.class || type == char.class || type.isEnum()) {
            return "text";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == long.class || type == int.class || type == short.class || type == byte.class || type == Long.class
                || type == Integer.class || type == Short.class || type == Byte.class) {
            return "a whole number";
        }
        if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        return "an object";
    }

    /** Jackson's backquoted class names ({@code `io.p2pbench.results.RunManifest`}) as their simple names. */
    private static String withoutClassNames(String message) {
        return message.replaceAll("`(?:[a-z]\\w*\\.)+([A-Z][\\w$]*)`", "$1")
                .replaceAll("\\s*\\(through reference chain:.*$", "");
    }
}
