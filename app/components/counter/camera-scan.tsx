import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Camera } from "#app/components/ui/icons.tsx";
import type CameraDialogType from "./camera-dialog.tsx";
import { focusScanField, READER_FAILED, type CounterAnswer } from "./counter-answer.ts";

// The dialog, the camera and the barcode reader are loaded when the button is pressed: the
// counter's first load carries only the button.
const CameraDialog = lazy(
  (): Promise<{ default: React.ComponentType<React.ComponentProps<typeof CameraDialogType>> }> =>
    import("./camera-dialog.tsx").catch(() => ({ default: ReaderNotLoaded })),
);

/** What opens instead of the dialog when its code could not be fetched. */
function ReaderNotLoaded({ onClose }: { onClose: (error?: string) => void }) {
  useEffect(() => onClose(READER_FAILED), [onClose]);
  return null;
}

/** Only where the browser can give the page a camera (a secure origin: HTTPS, or localhost). */
function useCameraAvailable() {
  return useSyncExternalStore(
    () => () => {},
    () => typeof navigator.mediaDevices?.getUserMedia === "function",
    () => false,
  );
}

/**
 * "Scan with the camera" beside the scan field (decision 023): on a tablet or phone, the camera's
 * codes go to `onCode`, the scan field's own queue, so each is added exactly as a scanned one.
 */
export function CameraScan({
  onCode,
  answer,
  busy,
  onOpenChange,
  onError,
  describedBy,
}: {
  onCode: (code: string) => void;
  /** The scan field's latest answer, and whether a code is being added. */
  answer: CounterAnswer | undefined;
  busy: boolean;
  onOpenChange: (open: boolean) => void;
  /** Why the camera could not be used, for the message beside the button; undefined clears it. */
  onError: (message: string | undefined) => void;
  /** The id of that message while there is one: it describes the button. */
  describedBy: string | undefined;
}) {
  const available = useCameraAvailable();
  const [open, setOpen] = useState(false);
  if (!available) return null;
  const openCamera = () => {
    // The reader's code is fetched beside the dialog's, not after it (which says if it failed).
    import("./barcode-reader.ts").catch(() => {});
    onError(undefined);
    onOpenChange(true);
    setOpen(true);
  };
  const close = (error?: string) => {
    setOpen(false);
    onOpenChange(false);
    if (error) onError(error);
    // Back to the scan field, ready for the scanner or the next typed code.
    focusScanField();
  };
  return (
    <>
      <Button type="button" variant="outline" aria-describedby={describedBy} onClick={openCamera}>
        <Camera aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">Scan with the camera</span>
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <CameraDialog onCode={onCode} answer={answer} busy={busy} onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
