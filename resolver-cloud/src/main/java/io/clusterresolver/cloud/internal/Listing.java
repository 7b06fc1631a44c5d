package io.clusterresolver.cloud.internal;

import io.clusterresolver.cloud.Member;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One finished listing of a cloud's members as processes share it (through a file on one host, or
 * from a relay to the other hosts): when it began and finished, on the clock of whoever listed, and
 * every member with all its fields. Its binary form names the query it answers, so a listing of
 * other filters or other credentials is never taken for this one.
 *
 * @param listedAt when the listing began (epoch milliseconds)
 * @param finishedAt when it finished (epoch milliseconds)
 * @param members every member, in the cloud's order
 */
public record Listing(long listedAt, long finishedAt, List<Member> members) {

  private static final int MAGIC = 0x434c5232; // "CLR2": CLR1 and a member's port and ordinal

  /** Copies the members. */
  public Listing {
    members = List.copyOf(members);
  }

  /**
   * Whether this listing may answer a resolve asked at {@code asked}: it finished after that (it was
   * in progress then, so the resolve waited for it), or it began at most {@code maxAge} before.
   * Finishing in the very millisecond of the ask is no proof: a resolve right after another must
   * list again. Both times are on the same clock (whoever answers).
   */
  public boolean answers(long asked, Duration maxAge) {
    return answers(listedAt, finishedAt, asked, maxAge);
  }

  private static boolean answers(long listedAt, long finishedAt, long asked, Duration maxAge) {
    return finishedAt > asked || !maxAge.isZero() && asked - listedAt <= maxAge.toMillis();
  }

  /** Writes the listing for {@code query}. */
  public void writeTo(DataOutput out, String query) throws IOException {
    out.writeInt(MAGIC);
    out.writeUTF(query);
    out.writeLong(listedAt);
    out.writeLong(finishedAt);
    out.writeInt(members.size());
    for (Member m : members) {
      out.writeUTF(m.id());
      out.writeUTF(m.address());
      Instant created = m.creationTime().orElse(null);
      out.writeBoolean(created != null);
      if (created != null) {
        out.writeLong(created.getEpochSecond());
        out.writeInt(created.getNano());
      }
      String name = m.name().orElse(null);
      out.writeBoolean(name != null);
      if (name != null) {
        out.writeUTF(name);
      }
      out.writeInt(m.labels().size());
      for (Map.Entry<String, String> e : m.labels().entrySet()) {
        out.writeUTF(e.getKey());
        out.writeUTF(e.getValue());
      }
      out.writeInt(m.accelerators().size());
      for (Map.Entry<String, Integer> e : m.accelerators().entrySet()) {
        out.writeUTF(e.getKey());
        out.writeInt(e.getValue());
      }
      out.writeInt(m.port().orElse(-1));
      out.writeInt(m.ordinal().orElse(-1));
    }
  }

  /**
   * Reads a listing written by {@link #writeTo} that is all the stream holds; {@code null} when it
   * answers another query, is not a listing at all, or something follows it.
   *
   * @throws IOException when it ends early
   */
  public static Listing readFrom(DataInputStream in, String query) throws IOException {
    Header header = Header.readFrom(in, query);
    return header == null ? null : header.readMembers(in);
  }

  /**
   * Like {@link #readFrom}, but {@code null} also when the listing does not {@linkplain #answers answer}
   * a resolve asked at {@code asked}, decided before its members are read: a listing of 10,000
   * members that would be thrown away costs a few bytes, not a decoding.
   */
  public static Listing readIfAnswers(DataInputStream in, String query, long asked, Duration maxAge)
      throws IOException {
    Header header = Header.readFrom(in, query);
    return header != null && header.answers(asked, maxAge) ? header.readMembers(in) : null;
  }

  /**
   * The times at the head of a listing's binary form: what decides whether it answers, read without
   * its members (a shared file is checked against them before its seal is computed over the whole).
   */
  record Header(long listedAt, long finishedAt) {

    /**
     * The header of a listing of {@code query} (a bounded read: the magic, a string of at most 64 KiB
     * and two longs); {@code null} when it is not a listing or answers another query.
     *
     * @throws IOException when it ends early or the query is not UTF-8 as {@link DataOutput#writeUTF} writes it
     */
    static Header readFrom(DataInput in, String query) throws IOException {
      if (in.readInt() != MAGIC || !in.readUTF().equals(query)) {
        return null;
      }
      return new Header(in.readLong(), in.readLong());
    }

    /** As {@link Listing#answers}. */
    boolean answers(long asked, Duration maxAge) {
      return Listing.answers(listedAt, finishedAt, asked, maxAge);
    }

    /** The members that follow this header in {@code in}; {@code null} when more follows them. */
    Listing readMembers(DataInputStream in) throws IOException {
      return whole(in, Listing.readMembers(in, listedAt, finishedAt));
    }
  }

  /** {@code listing} if nothing follows it in {@code in}: a file or answer with more is not one listing. */
  private static Listing whole(DataInputStream in, Listing listing) throws IOException {
    return in.read() == -1 ? listing : null;
  }

  private static Listing readMembers(DataInput in, long listedAt, long finishedAt) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      throw new IOException("negative member count " + n);
    }
    List<Member> members = new ArrayList<>(Math.min(n, 100_000));
    for (int i = 0; i < n; i++) {
      Member.Builder m = Member.builder(in.readUTF(), in.readUTF());
      if (in.readBoolean()) {
        m.creationTime(Instant.ofEpochSecond(in.readLong(), in.readInt()));
      }
      if (in.readBoolean()) {
        m.name(in.readUTF());
      }
      for (int labels = in.readInt(); labels > 0; labels--) {
        m.label(in.readUTF(), in.readUTF());
      }
      for (int devices = in.readInt(); devices > 0; devices--) {
        m.accelerators(in.readUTF(), in.readInt());
      }
      int port = in.readInt();
      if (port != -1) {
        m.port(port);
      }
      int ordinal = in.readInt();
      if (ordinal != -1) {
        m.ordinal(ordinal);
      }
      members.add(m.build());
    }
    return new Listing(listedAt, finishedAt, members);
  }
}
