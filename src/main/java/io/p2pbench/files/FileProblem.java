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
        if (e instanceof FileNotFoundException && e.getMessage() != null && e.getMessage().endsWith(")")
                && e.getMessage().contains(" (")) {
            return e.getMessage().substring(0, e.getMessage().lastIndexOf(" (")) + ": " + why(e);
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

    /** Why, without the file: {@code permission denied}, {@code no such file or folder}, or the reason given. */
    public static String why(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or folder";
        }
        if (e instanceof NotDirectoryException) {
            return "not a folder";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "already exists";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "the folder is not empty";
        }
        if (e instanceof FileSystemLoopException) {
            return "its links form a loop";
        }
        if (e instanceof FileSystemException f) {
            return f.getReason() != null ? f.getReason().strip() : "cannot be used";
        }
        String message = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("").strip();
        if (e instanceof FileNotFoundException) {
            // java.io's "PATH (Permission denied)": the reason in brackets, in lower case as the others.
            Matcher m = Pattern.compile("\\(([^()]+)\\)$").matcher(message);
            if (m.find()) {
                return m.group(1).toLowerCase(Locale.ROOT);
            }
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
        if (e instanceof JsonMappingException m) {
            String field = field(m);
            String first = e.getOriginalMessage() == null ? "" : e.getOriginalMessage().lines().findFirst().orElse("");
            return (field.isEmpty() ? "" : "\"" + field + "\": ") + withoutClassNames(first) + at;
        }
        String first = e.getOriginalMessage() == null ? "" : e.getOriginalMessage().lines().findFirst().orElse("");
        return withoutClassNames(first) + at;
    }

    private static String at(JsonLocation where) {
        return where == null || where.getLineNr() < 1 ? ""
                : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
    }

    /** The JSON path of the value, e.g. {@code entries[2].rounds}; empty at the top. */
    private static String field(JsonMappingException m) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : m.getPath()) {
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
