package io.cassette.metadata;

/** The metadata service ordered a transformation and it did not apply to the state it met. */
public final class MetadataRejectedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MetadataRejectedException(String reason) {
        super(reason);
    }
}
