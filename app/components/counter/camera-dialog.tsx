import { useEffect, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "#app/components/ui/dialog.tsx";
import type { CodeReader } from "./barcode-reader.ts";
import { watchCodes } from "./camera-sightings.ts";
import { READER_FAILED, SCAN_FIELD_ID, type CounterAnswer } from "./counter-answer.ts";

/** The rear camera where there is one (a tablet's or phone's), any camera otherwise. */
const CONSTRAINTS: MediaStreamConstraints = {
  video: { facingMode: { ideal: "environment" } },
  audio: false,
};
/** At most about eight reads a second: enough for a hand, and a tablet's battery lasts. */
const READ_EVERY_MS = 120;
/** A reader that fails this many frames in a row is taken to have stopped working. */
const FAILED_FRAMES = 5;

/** What the browser's refusal to start the camera means for the clerk. */
function cameraRefused(error: unknown): string {
  switch (error instanceof DOMException ? error.name : "") {
    case "NotAllowedError":
    case "SecurityError":
      return "The camera was refused: allow this page to use the camera in the browser's settings, or use the scanner.";
    case "NotFoundError":
    case "OverconstrainedError":
      return "No camera was found on this device: use the scanner or type the code.";
    default:
      return "The camera is in use or could not start: close other apps that use it and try again.";
  }
}

/** A code the camera took, and what the scan field's answer was when it went. */
type Taken = { code: string; answerBefore: CounterAnswer | undefined };
type Session = { stopped: boolean; stream?: MediaStream };

/**
 * The camera's preview, open from the press until it is closed (its button, Esc) or the camera
 * cannot be used (`onClose` with the reason). It stays open for the next product: a code is
 * taken when it comes into view, and again only after it was out of sight (camera-sightings.ts),
 * so a product held up is added once. Closing stops the camera at once and puts focus back in
 * the scan field.
 */
export default function CameraDialog({
  onCode,
  answer,
  busy,
  onClose,
}: {
  onCode: (code: string) => void;
  answer: CounterAnswer | undefined;
  busy: boolean;
  onClose: (error?: string) => void;
}) {
  const [started, setStarted] = useState(false);
  const [taken, setTaken] = useState<Taken | undefined>();
  const [stillInView, setStillInView] = useState(false);
  const video = useRef<HTMLVideoElement | null>(null);
  const answered = taken !== undefined && !busy && answer !== taken.answerBefore;
  // The reading loop outlives renders: it reads the latest of these.
  const latest = useRef({ onCode, onClose, answer, taken, answered });
  useEffect(() => {
    latest.current = { onCode, onClose, answer, taken, answered };
  });

  useEffect(() => {
    const session: Session = { stopped: false };
    const fail = (error: string) => {
      if (!session.stopped) latest.current.onClose(error);
    };

    const read = async (reader: CodeReader, preview: HTMLVideoElement) => {
      const sight = watchCodes();
      let failures = 0;
      let last = 0;
      while (!session.stopped) {
        await nextFrame(preview, last + READ_EVERY_MS - performance.now());
        if (session.stopped) return;
        if (preview.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) continue;
        last = performance.now();
        let codes: string[];
        try {
          codes = await reader.read(preview);
          failures = 0;
        } catch {
          if (++failures >= FAILED_FRAMES) return fail(READER_FAILED);
          continue;
        }
        if (session.stopped) return;
        const sighting = sight(codes, last);
        for (const code of sighting.taken) {
          setTaken({ code, answerBefore: latest.current.answer });
          setStillInView(false);
          latest.current.onCode(code);
        }
        // The product just added is still held up: the status says how to add another of it.
        const { taken: added, answered: done } = latest.current;
        if (
          sighting.taken.length === 0 &&
          done &&
          added !== undefined &&
          sighting.stillInView.includes(added.code)
        ) {
          setStillInView(true);
        }
      }
    };

    const start = async () => {
      const [reader, stream] = await Promise.allSettled([
        import("./barcode-reader.ts").then((module) => module.loadCodeReader()),
        navigator.mediaDevices.getUserMedia(CONSTRAINTS),
      ]);
      if (stream.status === "fulfilled") session.stream = stream.value;
      if (session.stopped) return stop(session);
      if (stream.status === "rejected") return fail(cameraRefused(stream.reason));
      const preview = video.current;
      if (reader.status === "rejected" || !preview) return fail(READER_FAILED);
      preview.srcObject = stream.value;
      setStarted(true);
      await read(reader.value, preview);
    };

    void start();
    // Closed, or the page left: the camera's light goes off now.
    return () => stop(session);
  }, []);

  const status = !started
    ? "Starting the camera…"
    : !taken
      ? "Hold a barcode, or a receipt's or pickup's QR code, up to the camera."
      : !answered
        ? `Read ${taken.code}…`
        : `${answer?.message ?? ""}${
            answer?.ok && stillInView
              ? " It is still in view: take it away and show it again to add another."
              : ""
          }`;
  return (
    <Dialog open onOpenChange={(open) => open || onClose()}>
      <DialogContent
        showCloseButton={false}
        onCloseAutoFocus={(event) => {
          // Back to the scan field, ready for the scanner or the next typed code.
          event.preventDefault();
          document.getElementById(SCAN_FIELD_ID)?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Scan with the camera</DialogTitle>
          <DialogDescription>
            Each product is added once as it comes into view. To add another of the same, take it
            away and show it again.
          </DialogDescription>
        </DialogHeader>
        <video
          ref={video}
          className="aspect-[4/3] w-full rounded-md bg-black object-cover"
          autoPlay
          muted
          playsInline
          aria-hidden="true"
        />
        <p role="status" aria-live="polite" className="min-h-10 text-sm font-medium">
          {status}
        </p>
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="outline">
              Close the camera
            </Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function stop(session: Session) {
  session.stopped = true;
  session.stream?.getTracks().forEach((track) => track.stop());
}

/** Waits `delay` ms if any, then for the video's next frame (or the next repaint). */
async function nextFrame(preview: HTMLVideoElement, delay: number) {
  if (delay > 0) await new Promise((resolve) => window.setTimeout(resolve, delay));
  await new Promise<void>((resolve) => {
    if ("requestVideoFrameCallback" in preview) preview.requestVideoFrameCallback(() => resolve());
    else requestAnimationFrame(() => resolve());
  });
}
