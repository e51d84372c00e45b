package io.cassette.resp.acl;

/** A rule ACL SETUSER (or an ACL file) cannot apply; the message is Redis 7.0's reason text. */
public final class AclRuleException extends Exception {
  private static final long serialVersionUID = 1L;

  public AclRuleException(String reason) {
    super(reason, null, false, false);
  }
}
