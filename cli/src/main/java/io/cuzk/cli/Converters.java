package io.cuzk.cli;

import io.cuzk.Curve;
import io.cuzk.Group;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Option values parsed by the library's own parsers, their messages kept: a bad value is a usage error. */
final class Converters {
    private Converters() {}

    static final class CurveConverter implements ITypeConverter<Curve> {
        @Override
        public Curve convert(String value) {
            try {
                return Curve.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class GroupConverter implements ITypeConverter<Group> {
        @Override
        public Group convert(String value) {
            try {
                return Group.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
